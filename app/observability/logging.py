"""JSON log lines carrying the request id and match id of whatever is being handled.

The ids live in contextvars set by ``RequestContext`` (middleware.py); tasks started while
handling a request (a socket's sender, a room's pump) inherit them. ``log_config`` is a
``logging.config.dictConfig`` dict that uvicorn applies in every worker, so its access and
error logs come out in the same format as ours.
"""

from __future__ import annotations

import json
import logging
from contextvars import Context, ContextVar, copy_context
from datetime import UTC, datetime
from typing import Any

from app.config import ObservabilitySettings

request_id: ContextVar[str | None] = ContextVar("skirmish_request_id", default=None)
match_id: ContextVar[str | None] = ContextVar("skirmish_match_id", default=None)

_STANDARD_ATTRS = frozenset(
    logging.LogRecord("", 0, "", 0, "", (), None).__dict__.keys()
    | {"message", "asctime", "color_message", "taskName"}
)


def match_context(match: str) -> Context:
    """A context for a match's own long-lived task: its match id, no request's id.

    Tasks copy the context they are created in; a room's pump created while handling the
    first socket would otherwise log that socket's request id for the room's lifetime.
    """
    context = copy_context()
    context.run(request_id.set, None)
    context.run(match_id.set, match)
    return context


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, ids, extras, exception."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, var in (("request_id", request_id), ("match_id", match_id)):
            value = getattr(record, key, None) or var.get()
            if value is not None:
                entry[key] = value
        for key, value in record.__dict__.items():
            if key not in _STANDARD_ATTRS and key not in entry:
                entry[key] = value if isinstance(value, str | int | float | bool) else repr(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """Readable lines for a terminal, with the ids appended when there are any."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        ids = [f"{k}={v.get()}" for k, v in (("request", request_id), ("match", match_id))]
        shown = [i for i in ids if not i.endswith("=None")]
        return f"{line} [{' '.join(shown)}]" if shown else line


def log_config(settings: ObservabilitySettings) -> dict[str, Any]:
    """The logging setup for uvicorn's ``log_config`` (applied in each worker process)."""
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if settings.log_format == "json"
        else {"()": TextFormatter, "fmt": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    level = settings.log_level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"skirmish": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "skirmish",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            "uvicorn": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.access": {
                "handlers": [],
                "level": level if settings.access_log else "WARNING",
                "propagate": True,
            },
        },
    }


def configure_logging(settings: ObservabilitySettings) -> None:
    """Apply ``log_config`` in this process (``skirmish migrate``, scripts)."""
    import logging.config

    logging.config.dictConfig(log_config(settings))
