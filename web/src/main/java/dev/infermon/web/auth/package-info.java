/** Bearer-token and basic authentication of the API and UI (bcrypt or SHA-256 password hashes). */
package dev.infermon.web.auth;
