/** picocli subcommands of {@code infermon} ({@code serve}, {@code simulate}, ...). */
package dev.infermon.server.cli;
