"""Runs moto's server with each request applied atomically, as AWS applies them.

moto serves requests on parallel threads and checks a DynamoDB condition expression before it
writes the item without a lock, so two concurrent conditional PutItem calls can both succeed;
two concurrent SQS ReceiveMessage calls can likewise receive the same message. DynamoDB
applies each conditional write atomically per item and SQS hides a received message from other
receivers, and Derive's claims and its exactly-once tests rely on that. This wrapper holds one
lock while moto handles a request, and releases it while an SQS long poll waits, so long polls
do not stall the endpoint.

Usage: python moto_atomic_server.py [moto_server arguments, e.g. -H 127.0.0.1 -p 5000]
"""

import sys
import threading

import moto.server
from moto.sqs import models as sqs_models

_LOCK = threading.Lock()


def _atomic(app):
    def handle(environ, start_response):
        with _LOCK:
            # Materialise the body inside the lock: moto computes it lazily for some services.
            return list(app(environ, start_response))

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
    return _run_simple(host, port, _atomic(app), *args, **kwargs)


moto.server.run_simple = _run_simple_atomic

if __name__ == "__main__":
    moto.server.main(sys.argv[1:])
