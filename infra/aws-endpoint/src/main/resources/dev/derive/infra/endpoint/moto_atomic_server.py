"""Runs moto's server with each request applied atomically, as AWS applies them.

moto serves requests on parallel threads and checks a DynamoDB condition expression before it
writes the item without a lock, so two concurrent conditional PutItem calls can both succeed;
two concurrent SQS ReceiveMessage calls can likewise receive the same message. DynamoDB
applies each conditional write atomically per item and SQS hides a received message from other
receivers, and Derive's claims and its exactly-once tests rely on that. This wrapper holds one
lock while moto handles a request, and releases it while an SQS long poll waits, so long polls
do not stall the endpoint.

S3 object reads (GET and HEAD of one object, signed or presigned) run outside the lock: they
change no state, and moto guards each object's bytes with a lock of its own, so a read sees a
whole object, the old one or the new one, as on S3. Without this every S3 download (source images of several megabytes) held
up every DynamoDB and SQS call, and two calls a function makes in parallel (a HEAD beside a GET)
ran one after the other. S3 writes stay atomic: a PutObject can fire bucket notifications into
EventBridge and SQS, and conditional writes (If-None-Match) must be checked and applied at once.

It also trims work moto repeats on every request (below), and with DERIVE_ENDPOINT_TRACE set
appends one line per request to that file (arrival and end in epoch milliseconds, method,
operation, path): the way to see, call by call, where a request's latency goes.

Usage: python moto_atomic_server.py [moto_server arguments, e.g. -H 127.0.0.1 -p 5000]
"""

import functools
import logging
import os
import sys
import threading
import time

import moto.backends
import moto.core.responses
import moto.server
from moto.sqs import models as sqs_models

_LOCK = threading.Lock()

# Work moto repeats on every request although its answer never changes in a process: the list of
# its service packages (a directory listing and a stat per package, ~0.8 ms) and the method names
# of a response class (inspect.getmembers, ~0.4 ms). Every request holds the lock below, so this
# time was paid once per AWS call by every caller waiting behind it.
_MOTO_MODULES = frozenset(moto.backends.list_of_moto_modules())
moto.backends.list_of_moto_modules = lambda: _MOTO_MODULES
moto.core.responses.method_names_from_class = functools.lru_cache(maxsize=None)(
    moto.core.responses.method_names_from_class
)
# One access-log line per request on stderr is noise in moto.log; errors are still logged.
logging.getLogger("werkzeug").setLevel(logging.WARNING)


def _is_s3_read(environ):
    """Whether the request is a path-style S3 GET or HEAD of one object.

    The service comes from the SigV4 credential scope. Bucket-level reads (ListObjects and the
    like: one path segment) stay locked: they iterate a bucket's keys, which a concurrent write
    may change under them.
    """
    if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
        return False
    if "/" not in environ.get("PATH_INFO", "").strip("/"):
        return False
    credential = environ.get("HTTP_AUTHORIZATION", "")
    if "Credential=" not in credential:
        # Presigned URL: the scope is in the query string (X-Amz-Credential, URL-encoded).
        credential = environ.get("QUERY_STRING", "").replace("%2F", "/").replace("%2f", "/")
    return "/s3/aws4_request" in credential


def _atomic(app):
    def handle(environ, start_response):
        if _is_s3_read(environ):
            return list(app(environ, start_response))
        with _LOCK:
            # Materialise the body inside the lock: moto computes it lazily for some services.
            return list(app(environ, start_response))

    return handle


_TRACE = os.environ.get("DERIVE_ENDPOINT_TRACE")
_TRACE_LOCK = threading.Lock()


def _traced(app):
    """Appends one line per request to DERIVE_ENDPOINT_TRACE: when it arrived and ended (epoch
    milliseconds), the method, the operation (X-Amz-Target or Action) and the path."""

    def handle(environ, start_response):
        arrived = time.time() * 1000
        body = app(environ, start_response)
        ended = time.time() * 1000
        operation = environ.get("HTTP_X_AMZ_TARGET") or environ.get("QUERY_STRING", "")[:40]
        with _TRACE_LOCK, open(_TRACE, "a") as trace:
            trace.write(
                "%.1f %.1f %s %s %s\n"
                % (arrived, ended, environ.get("REQUEST_METHOD"), operation, environ.get("PATH_INFO"))
            )
        return body

    return handle


_wait_for_messages = sqs_models.Queue.wait_for_messages


def _wait_without_lock(self, timeout):
    _LOCK.release()
    try:
        return _wait_for_messages(self, timeout)
    finally:
        _LOCK.acquire()


sqs_models.Queue.wait_for_messages = _wait_without_lock

_run_simple = moto.server.run_simple


def _run_simple_atomic(host, port, app, *args, **kwargs):
    handler = _atomic(app)
    return _run_simple(host, port, _traced(handler) if _TRACE else handler, *args, **kwargs)


moto.server.run_simple = _run_simple_atomic

if __name__ == "__main__":
    moto.server.main(sys.argv[1:])
