"""HTTP and WebSocket edges: parse, call one service function, shape the answer."""
