package dev.infermon.web.auth;

import dev.infermon.config.app.WebConfig;
import dev.infermon.config.value.Secret;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.mindrot.jbcrypt.BCrypt;

/**
 * Checks the {@code Authorization} header against {@code web.auth}: bearer tokens (compared in
 * constant time) and basic-auth users whose passwords are stored as bcrypt or {@code sha256:<hex>}
 * hashes. With neither configured every request passes.
 *
 * <p>bcrypt is slow on purpose (tens of milliseconds at cost 10), so a successful check is
 * remembered by the SHA-256 of the user and password; a wrong password is never cached and always
 * pays the full cost.
 *
 * <p>Thread-safe; immutable except for that cache.
 */
public final class Authenticator {
  private static final int MAX_CACHED = 256;

  private final List<Secret> tokens;
  private final Map<String, Secret> users;
  private final Set<String> verified = ConcurrentHashMap.newKeySet();

  private Authenticator(List<Secret> tokens, Map<String, Secret> users) {
    this.tokens = List.copyOf(tokens);
    this.users = Map.copyOf(users);
  }

  /** An authenticator for the configured tokens and users. */
  public static Authenticator of(WebConfig.Auth auth) {
    return new Authenticator(auth.bearerTokens(), auth.basicUsers());
  }

  /** Whether any credential is required. */
  public boolean enabled() {
    return !tokens.isEmpty() || !users.isEmpty();
  }

  /** Whether basic auth is offered (for the {@code WWW-Authenticate} challenge). */
  public boolean offersBasic() {
    return !users.isEmpty();
  }

  /** Whether a request with this {@code Authorization} header (may be null) may pass. */
  public boolean allows(String authorization) {
    if (!enabled()) {
      return true;
    }
    if (authorization == null) {
      return false;
    }
    int sp = authorization.indexOf(' ');
    if (sp < 0) {
      return false;
    }
    String scheme = authorization.substring(0, sp);
    String credentials = authorization.substring(sp + 1).trim();
    if (scheme.equalsIgnoreCase("Bearer")) {
      boolean ok = false;
      for (Secret t : tokens) {
        // No early exit: the time taken does not tell which token came close.
        ok |= t.matches(credentials);
      }
      return ok;
    }
    if (scheme.equalsIgnoreCase("Basic")) {
      return basic(credentials);
    }
    return false;
  }

  private boolean basic(String encoded) {
    String decoded;
    try {
      decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return false;
    }
    int colon = decoded.indexOf(':');
    if (colon < 0) {
      return false;
    }
    String user = decoded.substring(0, colon);
    String password = decoded.substring(colon + 1);
    Secret hash = users.get(user);
    if (hash == null) {
      return false;
    }
    String key = sha256Hex(user + "\u0000" + password + "\u0000" + hash.reveal());
    if (verified.contains(key)) {
      return true;
    }
    boolean ok = PasswordHash.matches(hash.reveal(), password);
    if (ok) {
      if (verified.size() >= MAX_CACHED) {
        verified.clear();
      }
      verified.add(key);
    }
    return ok;
  }

  static String sha256Hex(String s) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** The two password hash formats {@code web.auth.basic_users} accepts. */
  static final class PasswordHash {
    private PasswordHash() {}

    static boolean matches(String hash, String password) {
      if (hash.startsWith("sha256:")) {
        byte[] want = HexFormat.of().parseHex(hash.substring("sha256:".length()).toLowerCase());
        byte[] got;
        try {
          got =
              MessageDigest.getInstance("SHA-256")
                  .digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
          throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
        return MessageDigest.isEqual(want, got);
      }
      // jBCrypt knows $2a$; $2y$ (htpasswd) and $2b$ hash identically for valid UTF-8 input.
      String normalized =
          hash.startsWith("$2y$") || hash.startsWith("$2b$") ? "$2a$" + hash.substring(4) : hash;
      try {
        return BCrypt.checkpw(password, normalized);
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
  }
}
