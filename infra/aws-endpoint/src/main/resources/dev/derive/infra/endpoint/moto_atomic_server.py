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
EventBridge and SQS, and conditional writes (If-None-Match) must be checked and applied at once;
but an upload's body is read before the lock is taken, so a slow upload stalls no one else.

It also trims work moto repeats on every request, serialises DynamoDB items, counts SQS messages
and delivers EventBridge events without its generic slow paths (below), and with
DERIVE_ENDPOINT_TRACE set
appends one line per request to that file (arrival and end in epoch milliseconds, method,
operation, path): the way to see, call by call, where a request's latency goes.

Usage: python moto_atomic_server.py [moto_server arguments, e.g. -H 127.0.0.1 -p 5000]
"""

import base64
import functools
import hashlib
import io
import logging
import os
import sys
import threading
import time

import jsonpath_ng.ext
import moto.backends
import moto.core.responses
import moto.server
from moto.core import serialize as moto_serialize
from moto.dynamodb.comparisons import ConditionExpressionParser
from moto.events.utils import EventTemplateParser
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


# DynamoDB items leave moto through its generic serializer, which walks every attribute value
# against the AttributeValue shape: ten members tried per value, each through several spellings of
# its name. For a job record (~1.7 KB, ~150 values) that was two thirds of a GetItem (~1.4 of 2.1
# ms), and every waiting request reads its job this way every 10-20 ms. moto hands the serializer
# each value already in the wire's form ({"S": "..."}, {"M": {...}}, binary as bytes), so it is
# written as it is, binary base64-encoded as the generic path does; a value of any other form
# takes the generic path.
_ATTRIBUTE_VALUE_KINDS = frozenset(("S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"))


class _NotWireForm(Exception):
    """An attribute value not in the form moto's DynamoDB responses give: serialise generically."""


def _base64(value):
    if isinstance(value, str):
        value = value.encode("utf-8")
    if not isinstance(value, bytes):
        raise _NotWireForm
    return base64.b64encode(value).strip().decode("utf-8")


def _attribute_value(value):
    """The JSON wire form of one DynamoDB attribute value as moto's responses hold it."""
    if not isinstance(value, dict) or len(value) != 1:
        raise _NotWireForm
    ((kind, inner),) = value.items()
    if kind not in _ATTRIBUTE_VALUE_KINDS or inner is None:
        raise _NotWireForm
    if kind == "M":
        if not isinstance(inner, dict):
            raise _NotWireForm
        return {"M": {name: _attribute_value(member) for name, member in inner.items()}}
    if kind == "L":
        return {"L": [_attribute_value(member) for member in inner]}
    if kind == "B":
        return {"B": _base64(inner)}
    if kind == "BS":
        return {"BS": [_base64(member) for member in inner]}
    if kind in ("S", "N"):
        if not isinstance(inner, str):
            raise _NotWireForm
        return {kind: inner}
    if kind in ("SS", "NS"):
        if not all(isinstance(member, str) for member in inner):
            raise _NotWireForm
        return {kind: list(inner)}
    if not isinstance(inner, bool):
        raise _NotWireForm
    return {kind: inner}


_serialize_structure = moto_serialize.BaseJSONSerializer._serialize_type_structure


def _serialize_structure_fast(self, serialized, value, shape, key):
    if key and shape.name == "AttributeValue":
        try:
            serialized[key] = _attribute_value(value)
            return
        except _NotWireForm:
            pass
    _serialize_structure(self, serialized, value, shape, key)


moto_serialize.BaseJSONSerializer._serialize_type_structure = _serialize_structure_fast

# SQS: every SendMessage reads the queue's attributes (for ContentBasedDeduplication) and every
# received message its retention period through the same call, and computing the attributes counts
# the queue's messages three times (visible, in flight, delayed), each message asking the clock
# through datetime arithmetic (~12 us). A send to a queue of 300 messages took ~13 ms, so a burst
# slowed down as its queue grew. The clock is read with time.time() (the same epoch seconds), and
# the retention check reads the one attribute it needs.
_unix_time = sqs_models.unix_time


def _unix_time_now(dt=None):
    return time.time() if dt is None else _unix_time(dt)


def _unix_time_millis_now(dt=None):
    return time.time() * 1000.0 if dt is None else _unix_time(dt) * 1000.0


def _within_retention_period(self, queue_name, message):
    retention_seconds = int(self.get_queue(queue_name).message_retention_period)
    return retention_seconds + message.sent_timestamp / 1000 > time.time()


sqs_models.unix_time = _unix_time_now
sqs_models.unix_time_millis = _unix_time_millis_now
sqs_models.SQSBackend.is_message_valid_based_on_retention_period = _within_retention_period

# EventBridge: moto delivers an event to each rule target through its input-transformer code,
# which, with no InputTransformer, applies its default paths map: eight JSONPath expressions
# ($.id, $.detail, ...), each parsed with jsonpath_ng.ext.parse, which builds its yacc parse tables
# anew on every call (~30 ms). One PutEvents matching one rule held the endpoint for 200-860 ms on
# `./derive up` (the completion-event journal's rule), stalling every other call. A parsed
# expression is read-only when evaluated, so each path string is parsed once.
jsonpath_ng.ext.parse = functools.lru_cache(maxsize=1024)(jsonpath_ng.ext.parse)
# The default map is parsed now (~0.25 s of start-up) rather than inside the first PutEvents, which
# held the lock for ~0.7 s while the first job's completion event was published.
for _path in EventTemplateParser.DEFAULT_EVENT_INPUT_PATHS_MAP.values():
    jsonpath_ng.ext.parse(_path)

# DynamoDB condition expressions: moto lexes and parses each one with regular expressions compiled
# per token, twice per conditional write (once to validate the request, once to apply it): about
# a fifth of a PutItem or UpdateItem of a job record in-process. Derive's writes use a few
# expressions over and over with new values each time (a time, an execution id), so the syntax
# tree is kept per expression and attribute-names map, and each use puts its own request's values
# into it (a missing value raises KeyError, as the parse does). Only trees of expressions that
# parsed are kept, so an invalid one fails every time as before.
_ParserNode = ConditionExpressionParser.Node
_EXPRESSION_VALUE = ConditionExpressionParser.Kind.EXPRESSION_ATTRIBUTE_VALUE
_condition_trees = {}


def _syntax_tree(parser):
    nodes = parser._lex_condition_expression()
    nodes = parser._parse_paths(nodes)
    nodes = parser._apply_functions(nodes)
    nodes = parser._apply_comparator(nodes)
    nodes = parser._apply_in(nodes)
    nodes = parser._apply_between(nodes)
    nodes = parser._apply_parens_and_booleans(nodes)
    node = nodes[0]
    parser._assert_no_redundant_parentheses(node)
    return node


def _with_values(parser, node):
    if node.kind == _EXPRESSION_VALUE:
        return node._replace(value=parser._lookup_expression_attribute_value(node.text))
    if not node.children:
        return node
    return node._replace(children=[_with_values(parser, child) for child in node.children])


def _parse_condition(self):
    if not self.condition_expression:
        return _parse_condition_in_moto(self)
    key = (self.condition_expression, tuple(sorted((self.expression_attribute_names or {}).items())))
    tree = _condition_trees.get(key)
    if tree is None:
        tree = _syntax_tree(self)
        if len(_condition_trees) < 1024:
            _condition_trees[key] = tree
    node = _with_values(self, tree)
    self.expr_attr_names_found.extend(self._find_literals(node))
    self.expr_attr_values_found.extend(self._find_expr_attr_values(node))
    return self._make_op_condition(node)


_parse_condition_in_moto = ConditionExpressionParser.parse
ConditionExpressionParser.parse = _parse_condition


def _is_s3(environ):
    """Whether the request is signed for S3 (the service of its SigV4 credential scope)."""
    credential = environ.get("HTTP_AUTHORIZATION", "")
    if "Credential=" not in credential:
        # Presigned URL: the scope is in the query string (X-Amz-Credential, URL-encoded).
        credential = environ.get("QUERY_STRING", "").replace("%2F", "/").replace("%2f", "/")
    return "/s3/aws4_request" in credential


def _is_s3_read(environ):
    """Whether the request is a path-style S3 GET or HEAD of one object.

    Bucket-level reads (ListObjects and the like: one path segment) stay locked: they iterate a
    bucket's keys, which a concurrent write may change under them.
    """
    if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
        return False
    if "/" not in environ.get("PATH_INFO", "").strip("/"):
        return False
    return _is_s3(environ)


def _read_upload_body(environ):
    """Reads an upload's whole body before the lock is taken, so that a slow or stalled upload
    holds only its own thread: moto reads the body inside its handler, and an upload arriving at
    100 KB/s (or a client that stops sending) held every DynamoDB and SQS call behind it, until the
    functions' calls timed out.

    An upload is a PUT (only S3 takes PUT here; DynamoDB, SQS and EventBridge calls are POST) or a
    POST signed for S3, with a Content-Length; a chunked body is left to moto, inside the lock.
    """
    method = environ.get("REQUEST_METHOD")
    if method != "PUT" and not (method == "POST" and _is_s3(environ)):
        return
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        return
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return
    if length <= 0:
        return
    body = environ["wsgi.input"].read(length)
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))


# S3 checks an upload against the checksum it is sent with and keeps it (HeadObject and GetObject
# return it with x-amz-checksum-mode: ENABLED); moto 5.2.1 keeps it only when the SDK's own
# x-amz-sdk-checksum-algorithm header names the algorithm, and checks it never. A presigned PUT
# signed with a checksum (x-amz-checksum-sha256: Derive's uploads, which identify a source by it)
# has no SDK header, so moto dropped it, and a wrong one was stored. For SHA-256 and SHA-1, which moto
# computes exactly, the body is checked here and the algorithm named for moto, as S3 does.
_VERIFIED_CHECKSUMS = {"sha256": hashlib.sha256, "sha1": hashlib.sha1}


def _checksum_refusal(environ):
    """S3's 400 BadDigest for an upload whose body does not match its x-amz-checksum-sha256 (or
    -sha1) header, else None; a matching one has its algorithm named for moto to keep it."""
    if environ.get("REQUEST_METHOD") != "PUT" or not isinstance(environ.get("wsgi.input"), io.BytesIO):
        return None
    for name, digest in _VERIFIED_CHECKSUMS.items():
        given = environ.get("HTTP_X_AMZ_CHECKSUM_" + name.upper())
        if given is None:
            continue
        body = environ["wsgi.input"].getvalue()
        actual = base64.b64encode(digest(body).digest()).decode("ascii")
        if given.strip() != actual:
            return (
                "400 Bad Request",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>BadDigest</Code><Message>The "
                + name.upper()
                + " you specified did not match the calculated checksum.</Message></Error>",
            )
        environ.setdefault("HTTP_X_AMZ_SDK_CHECKSUM_ALGORITHM", name.upper())
    return None


def _atomic(app):
    def handle(environ, start_response):
        if _is_s3_read(environ):
            return list(app(environ, start_response))
        _read_upload_body(environ)
        refusal = _checksum_refusal(environ)
        if refusal is not None:
            status, body = refusal
            start_response(status, [("Content-Type", "application/xml")])
            return [body.encode("utf-8")]
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
