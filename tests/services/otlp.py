"""A minimal OTLP/HTTP trace collector on a loopback port, for the cluster tests."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2


class Collector:
    def __init__(self) -> None:
        self.spans: list[tuple[str, str, str]] = []  # (service.name, span name, trace id)
        lock = threading.Lock()
        spans = self.spans

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                req = trace_service_pb2.ExportTraceServiceRequest()
                req.ParseFromString(body)
                with lock:
                    for rs in req.resource_spans:
                        attrs = {a.key: a.value.string_value for a in rs.resource.attributes}
                        for ss in rs.scope_spans:
                            for sp in ss.spans:
                                spans.append((attrs.get("service.name", ""), sp.name,
                                              sp.trace_id.hex()))
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.end_headers()
                self.wfile.write(trace_service_pb2.ExportTraceServiceResponse()
                                 .SerializeToString())

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> Collector:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
