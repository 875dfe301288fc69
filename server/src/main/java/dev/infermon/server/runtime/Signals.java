package dev.infermon.server.runtime;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGHUP handling through {@code sun.misc.Signal} (module {@code jdk.unsupported}, present in every
 * OpenJDK build). Reached by reflection because javac warns about the class at compile time and the
 * build treats warnings as errors. Where the class or the signal is missing, reload stays available
 * through {@code POST /-/reload}.
 *
 * <p>A process started with SIGHUP ignored ({@code nohup}, some supervisors) keeps it ignored: the
 * JVM does not install a handler for a shutdown signal its parent set to SIG_IGN, and {@code
 * Signal.handle} then returns SIG_IGN instead of failing. Prometheus (Go's {@code signal.Notify})
 * reloads even then; infermon cannot, so it says so at start instead of dropping every SIGHUP
 * silently.
 */
final class Signals {
  private static final Logger log = LoggerFactory.getLogger(Signals.class);

  private Signals() {}

  /**
   * Calls {@code action} on its own thread each time the process receives SIGHUP.
   *
   * @return false when SIGHUP cannot reach the process (ignored by its parent, or no {@code
   *     sun.misc.Signal}); a warning naming the way to reload instead has been logged then
   */
  static boolean onHangup(Runnable action) {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      Object signal = signalClass.getConstructor(String.class).newInstance("HUP");
      InvocationHandler ih =
          (proxy, method, args) -> {
            if (method.getName().equals("handle")) {
              Thread t = new Thread(action, "sighup-reload");
              t.setDaemon(true);
              t.start();
              return null;
            }
            if (method.getName().equals("toString")) {
              return "infermon SIGHUP handler";
            }
            if (method.getName().equals("hashCode")) {
              return System.identityHashCode(proxy);
            }
            if (method.getName().equals("equals")) {
              return proxy == args[0];
            }
            return null;
          };
      Object handler =
          Proxy.newProxyInstance(Signals.class.getClassLoader(), new Class<?>[] {handlerClass}, ih);
      Object previous =
          signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
      if (previous == handlerClass.getField("SIG_IGN").get(null)) {
        log.warn(
            "SIGHUP is ignored by the process that started infermon (nohup?), so SIGHUP will not"
                + " reload the configuration; reload with POST /-/reload"
                + " (--web.enable-lifecycle), or start infermon without ignoring SIGHUP");
        return false;
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("cannot handle SIGHUP ({}); reload with POST /-/reload", e.toString());
      return false;
    }
  }
}
