package dev.derive.infra.local.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The local HTTP API's HTTP/1.1 server on Netty's codec: {@link HttpServerCodec} parses (it keeps
 * the request-target as sent, so a path with {@code {}} reaches the routes, where {@code
 * com.sun.net.httpserver} refused it with its own HTML page), {@link HttpServerKeepAliveHandler}
 * keeps connections open, {@link HttpServerExpectContinueHandler} answers {@code 100-continue} and
 * {@link HttpObjectAggregator} collects each body up to the payload limit. The handler runs on
 * {@code executor}, never on the event loop, one request of a connection at a time, so pipelined
 * requests are answered in order.
 */
final class NettyHttpServer implements AutoCloseable {
  /** Longest request line, and longest header section, accepted, in bytes. */
  static final int MAX_HEAD_BYTES = 64 * 1024;

  /** A body over the limit is read and dropped up to this size so the 413 reaches the client. */
  static final long MAX_DRAINED_BYTES = 64L * 1024 * 1024;

  /** The largest piece of a body the decoder hands on at once, in bytes. */
  static final int MAX_CHUNK_BYTES = 64 * 1024;

  /** How long a connection may sit without sending anything, in seconds. */
  static final int IDLE_TIMEOUT_SECONDS = 300;

  /**
   * One request.
   *
   * @param method e.g. {@code GET}
   * @param target the request-target as sent (RFC 9112 section 3.2), each byte as one character
   * @param version e.g. {@code HTTP/1.1}
   * @param headers header fields in arrival order, names as sent
   * @param body the body, or {@code null} when it was over the limit (answer 413)
   * @param remoteAddress the client's IP address
   */
  record Request(
      String method,
      String target,
      String version,
      List<Map.Entry<String, String>> headers,
      byte[] body,
      String remoteAddress) {}

  /** Answers one request. */
  interface Handler {
    /** The response to {@code request}; a runtime exception closes the connection. */
    HttpResponse handle(Request request);
  }

  private final EventLoopGroup acceptor;
  private final EventLoopGroup connections;
  private final Channel channel;

  private NettyHttpServer(EventLoopGroup acceptor, EventLoopGroup connections, Channel channel) {
    this.acceptor = acceptor;
    this.connections = connections;
    this.channel = channel;
  }

  /**
   * Serves {@code address} until closed.
   *
   * @param maxBodyBytes largest body handed to the handler; a larger one arrives as {@code null}
   * @param executor runs the handler (it may block, e.g. on a function invocation)
   * @throws IOException if the address cannot be bound
   */
  static NettyHttpServer start(
      InetSocketAddress address, int maxBodyBytes, ExecutorService executor, Handler handler)
      throws IOException {
    EventLoopGroup acceptor =
        new NioEventLoopGroup(1, new DefaultThreadFactory("local-http-api-accept", true));
    EventLoopGroup connections =
        new NioEventLoopGroup(2, new DefaultThreadFactory("local-http-api-io", true));
    try {
      Channel channel =
          new ServerBootstrap()
              .group(acceptor, connections)
              .channel(NioServerSocketChannel.class)
              .option(ChannelOption.SO_BACKLOG, 128)
              .option(ChannelOption.SO_REUSEADDR, true)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(new ReadTimeoutHandler(IDLE_TIMEOUT_SECONDS))
                          .addLast(
                              new HttpServerCodec(MAX_HEAD_BYTES, MAX_HEAD_BYTES, MAX_CHUNK_BYTES))
                          .addLast(new HttpServerKeepAliveHandler())
                          .addLast(new ExpectContinue(maxBodyBytes, handler, remote(ch)))
                          .addLast(new Aggregator(maxBodyBytes))
                          .addLast(new Exchange(executor, handler, remote(ch)));
                    }
                  })
              .bind(address)
              .syncUninterruptibly()
              .channel();
      return new NettyHttpServer(acceptor, connections, channel);
    } catch (Exception e) { // Netty rethrows the bind's IOException unchecked
      shutdown(acceptor, connections);
      throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
    }
  }

  /** The port served. */
  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** Stops accepting, closes every open connection and stops the event loops. */
  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    shutdown(acceptor, connections);
  }

  private static void shutdown(EventLoopGroup... groups) {
    for (EventLoopGroup group : groups) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    }
    for (EventLoopGroup group : groups) {
      group.terminationFuture().syncUninterruptibly();
    }
  }

  private static String remote(SocketChannel ch) {
    InetSocketAddress remote = ch.remoteAddress();
    return remote == null ? "" : remote.getAddress().getHostAddress();
  }

  /** A request whose body is over the limit; what is left of the body is dropped. */
  private record TooLarge(io.netty.handler.codec.http.HttpRequest head) {}

  /**
   * {@code 100 Continue}, unless the announced body is over the limit: then {@code 413} at once and
   * the connection closes, so the client need not send the body.
   */
  private static final class ExpectContinue extends HttpServerExpectContinueHandler {
    private final int maxBodyBytes;
    private final Handler handler;
    private final String remote;

    ExpectContinue(int maxBodyBytes, Handler handler, String remote) {
      this.maxBodyBytes = maxBodyBytes;
      this.handler = handler;
      this.remote = remote;
    }

    @Override
    protected io.netty.handler.codec.http.HttpResponse acceptMessage(
        io.netty.handler.codec.http.HttpRequest request) {
      return HttpUtil.getContentLength(request, -1L) > maxBodyBytes
          ? null
          : super.acceptMessage(request);
    }

    @Override
    protected io.netty.handler.codec.http.HttpResponse rejectResponse(
        io.netty.handler.codec.http.HttpRequest request) {
      HttpResponse response = handler.handle(NettyMessages.request(request, null, remote));
      return NettyMessages.encode(response, request.method(), false);
    }
  }

  /**
   * Netty's aggregator, with a body over the limit handed on as {@link TooLarge} (the routing code
   * answers it) and then dropped as it arrives, up to {@link #MAX_DRAINED_BYTES}.
   */
  private static final class Aggregator extends HttpObjectAggregator {
    private long drained = -1;

    Aggregator(int maxContentLength) {
      super(maxContentLength);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out)
        throws Exception {
      if (msg instanceof HttpMessage) {
        drained = -1;
      } else if (drained >= 0 && msg instanceof HttpContent content) {
        drained += content.content().readableBytes();
        if (drained > MAX_DRAINED_BYTES) {
          ctx.close();
          return;
        }
      }
      super.decode(ctx, msg, out);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      drained = 0;
      if (oversized instanceof io.netty.handler.codec.http.HttpRequest request) {
        var head =
            new io.netty.handler.codec.http.DefaultHttpRequest(
                request.protocolVersion(), request.method(), request.uri(), request.headers());
        ctx.fireChannelRead(new TooLarge(head));
      }
    }
  }

  /**
   * One connection's requests: each is handed to the handler on the executor after the one before
   * it has been answered.
   */
  private static final class Exchange extends ChannelInboundHandlerAdapter {
    private final ExecutorService executor;
    private final Handler handler;
    private final String remote;
    private CompletableFuture<Void> previous = CompletableFuture.completedFuture(null);

    Exchange(ExecutorService executor, Handler handler, String remote) {
      this.executor = executor;
      this.handler = handler;
      this.remote = remote;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      try {
        if (msg instanceof FullHttpRequest full && !full.decoderResult().isSuccess()) {
          boolean tooLong = full.decoderResult().cause() instanceof TooLongFrameException;
          HttpResponse response =
              tooLong
                  ? HttpResponse.message(431, "Request Header Fields Too Large")
                  : HttpResponse.message(400, "Bad Request");
          answer(ctx, full.method(), () -> response, false);
        } else if (msg instanceof FullHttpRequest full) {
          Request request =
              NettyMessages.request(full, ByteBufUtil.getBytes(full.content()), remote);
          answer(ctx, full.method(), () -> handler.handle(request), true);
        } else if (msg instanceof TooLarge tooLarge) {
          Request request = NettyMessages.request(tooLarge.head(), null, remote);
          answer(ctx, tooLarge.head().method(), () -> handler.handle(request), true);
        }
        // anything else is the rest of a refused request: dropped
      } finally {
        ReferenceCountUtil.release(msg);
      }
    }

    /** Writes {@code response}'s result once the answers before it are out. */
    private void answer(
        ChannelHandlerContext ctx,
        HttpMethod method,
        Supplier<HttpResponse> response,
        boolean keepAlive) {
      previous =
          previous
              .thenRunAsync(
                  () -> ctx.writeAndFlush(NettyMessages.encode(response.get(), method, keepAlive)),
                  executor)
              .exceptionally(
                  e -> {
                    ctx.close();
                    return null;
                  });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close(); // the client went away, timed out or sent something unreadable
    }
  }
}
