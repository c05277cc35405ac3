"""The request handlers, one module per group of requests (each registers itself in
`requests.HANDLERS`)."""
from . import breakpoints, goto, inspection, lifecycle, memory, running, views  # noqa: F401
