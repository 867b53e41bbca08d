package dev.derive.worker.markup;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.select.NodeFilter;
import org.jsoup.select.NodeTraversor;

/**
 * Refuses a document whose elements nest deeper than the renderer lays out in reasonable time.
 * openhtmltopdf's layout cost grows much faster than the nesting depth: 2,000 nested {@code <div>}s
 * or 300 nested tables ran for minutes, while real documents (web pages, HTML e-mail with nested
 * layout tables) stay well under a hundred levels. The check is made on the parsed tree, so
 * Markdown (nested block quotes, lists) and HTML are held to the same limit.
 */
final class NestingLimit {
  /** Deepest element nesting rendered, counted from {@code <html>} (1) down. */
  static final int MAX_DEPTH = 100;

  private NestingLimit() {}

  /**
   * Checks {@code document}.
   *
   * @throws PermanentStepFailure {@code input-too-large} when an element nests deeper than {@link
   *     #MAX_DEPTH}
   */
  static void check(Document document) {
    int depth = depth(document);
    if (depth > MAX_DEPTH) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          "the document nests elements "
              + depth
              + " levels deep; the markup capability renders at most "
              + MAX_DEPTH
              + " levels");
    }
  }

  /** The deepest element's depth ({@code <html>} is 1), counted to just past the limit. */
  static int depth(Document document) {
    int[] deepest = {0};
    NodeTraversor.filter( // iterative: a deep tree cannot overflow the stack here
        new NodeFilter() {
          @Override
          public FilterResult head(Node node, int depth) {
            if (node instanceof Element) {
              deepest[0] = Math.max(deepest[0], depth);
              if (depth > MAX_DEPTH) {
                return FilterResult.STOP;
              }
            }
            return FilterResult.CONTINUE;
          }

          @Override
          public FilterResult tail(Node node, int depth) {
            return FilterResult.CONTINUE;
          }
        },
        document);
    return deepest[0];
  }
}
