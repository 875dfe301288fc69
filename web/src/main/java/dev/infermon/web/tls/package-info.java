/** TLS key material from PEM files, loaded with JDK APIs only. */
package dev.infermon.web.tls;
