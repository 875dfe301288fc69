package dev.infermon.rules.template;

import java.util.List;

/**
 * What template functions need from outside: the {@code query} function (PromQL at the evaluation
 * time) and the external URL. Implementations are used by one expansion at a time.
 */
public interface TemplateContext {
  /** A context whose {@code query} fails and whose external URL is empty. */
  TemplateContext NONE =
      new TemplateContext() {
        @Override
        public List<QuerySample> query(String promql) {
          throw new IllegalStateException("query is not available here");
        }

        @Override
        public String externalUrl() {
          return "";
        }
      };

  /**
   * Evaluates an instant query; a scalar result is one sample without labels.
   *
   * @throws RuntimeException whose message becomes the template error
   */
  List<QuerySample> query(String promql);

  /** The external URL ({@code --web.external-url}), e.g. {@code http://host:9090/prefix}. */
  String externalUrl();
}
