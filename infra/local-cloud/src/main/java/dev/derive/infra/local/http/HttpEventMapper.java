package dev.derive.infra.local.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds the API Gateway HTTP API event, payload format 2.0, for a request and its matched route:
 * {@code version}, {@code routeKey}, {@code rawPath} (percent-decoded, as an HTTP API hands it over
 * despite its name: {@code /capture/space%20value} arrives as {@code /capture/space value}, {@code
 * /a%2Fb} as {@code /a/b}; REST APIs and function URLs keep the escapes. Seen in events captured
 * from AWS, e.g. https://github.com/hotsock/voker, {@code vokerhttp/testdata}, and
 * fastify/aws-lambda-fastify#169), {@code rawQueryString} (as sent), {@code cookies}, lower-cased
 * {@code headers} (repeated values comma-joined, cookies moved to {@code cookies}), {@code
 * queryStringParameters} (repeated values comma-joined), {@code pathParameters}, {@code
 * requestContext} and {@code body} (base64 with {@code isBase64Encoded} unless the content type is
 * text). See
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html.
 */
public final class HttpEventMapper {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter REQUEST_TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
          .withZone(ZoneOffset.UTC);

  private final String apiId;
  private final String accountId;
  private final String region;

  /** Events name {@code apiId}, {@code accountId} and {@code region} in their request context. */
  public HttpEventMapper(String apiId, String accountId, String region) {
    this.apiId = apiId;
    this.accountId = accountId;
    this.region = region;
  }

  /** The event for {@code request} routed by {@code match}, with {@code requestId}. */
  public ObjectNode event(HttpRequest request, RouteTable.Match match, String requestId) {
    ObjectNode event = JSON.createObjectNode();
    event.put("version", "2.0");
    event.put("routeKey", match.route().routeKey());
    event.put("rawPath", PercentDecoding.decode(request.rawPath()));
    event.put("rawQueryString", request.rawQueryString());

    Map<String, String> headers = new LinkedHashMap<>();
    List<String> cookies = new ArrayList<>();
    for (Map.Entry<String, String> header : request.headers()) {
      String name = header.getKey().toLowerCase(Locale.ROOT);
      if (name.equals("cookie")) {
        for (String cookie : header.getValue().split(";")) {
          if (!cookie.isBlank()) {
            cookies.add(cookie.trim());
          }
        }
      } else {
        headers.merge(name, header.getValue(), (a, b) -> a + "," + b);
      }
    }
    headers.putIfAbsent("x-forwarded-for", request.sourceIp());
    headers.putIfAbsent("x-forwarded-proto", "http");
    if (!cookies.isEmpty()) {
      ArrayNode cookieArray = event.putArray("cookies");
      cookies.forEach(cookieArray::add);
    }
    ObjectNode headerNode = event.putObject("headers");
    headers.forEach(headerNode::put);

    Map<String, String> query = queryParameters(request.rawQueryString());
    if (!query.isEmpty()) {
      ObjectNode queryNode = event.putObject("queryStringParameters");
      query.forEach(queryNode::put);
    }
    if (!match.pathParameters().isEmpty()) {
      ObjectNode pathNode = event.putObject("pathParameters");
      match.pathParameters().forEach(pathNode::put);
    }

    Instant now = Instant.now();
    ObjectNode context = event.putObject("requestContext");
    context.put("accountId", accountId);
    context.put("apiId", apiId);
    context.put("domainName", apiId + ".execute-api." + region + ".amazonaws.com");
    context.put("domainPrefix", apiId);
    ObjectNode http = context.putObject("http");
    http.put("method", request.method().toUpperCase(Locale.ROOT));
    http.put("path", PercentDecoding.decode(request.rawPath()));
    http.put("protocol", request.protocol());
    http.put("sourceIp", request.sourceIp());
    http.put("userAgent", headers.getOrDefault("user-agent", ""));
    context.put("requestId", requestId);
    context.put("routeKey", match.route().routeKey());
    context.put("stage", "$default");
    context.put("time", REQUEST_TIME.format(now));
    context.put("timeEpoch", now.toEpochMilli());

    byte[] body = request.body();
    if (body.length > 0) {
      String text = isText(headers.get("content-type")) ? utf8(body) : null;
      if (text != null) {
        event.put("body", text);
        event.put("isBase64Encoded", false);
      } else {
        event.put("body", Base64.getEncoder().encodeToString(body));
        event.put("isBase64Encoded", true);
      }
    } else {
      event.put("isBase64Encoded", false);
    }
    return event;
  }

  /**
   * Decoded query parameters; a repeated name gets its values comma-joined, as API Gateway does.
   */
  static Map<String, String> queryParameters(String rawQuery) {
    Map<String, String> parameters = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return parameters;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = PercentDecoding.decodeQuery(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : PercentDecoding.decodeQuery(pair.substring(equals + 1));
      parameters.merge(name, value, (a, b) -> a + "," + b);
    }
    return parameters;
  }

  private static boolean isText(String contentType) {
    if (contentType == null) {
      return true;
    }
    String type = contentType.toLowerCase(Locale.ROOT);
    return type.startsWith("text/")
        || type.contains("json")
        || type.contains("xml")
        || type.startsWith("application/x-www-form-urlencoded")
        || type.startsWith("application/javascript")
        || type.startsWith("application/graphql");
  }

  private static String utf8(byte[] body) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException notText) {
      return null;
    }
  }
}
