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
 */
final class Signals {
  private static final Logger log = LoggerFactory.getLogger(Signals.class);

  private Signals() {}

  /** Calls {@code action} on its own thread each time the process receives SIGHUP. */
  static void onHangup(Runnable action) {
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
      signalClass.getMethod("handle", signalClass, handlerClass).invoke(null, signal, handler);
    } catch (ReflectiveOperationException | RuntimeException e) {
      log.warn("cannot handle SIGHUP ({}); reload with POST /-/reload", e.toString());
    }
  }
}
