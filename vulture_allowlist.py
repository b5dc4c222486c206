"""Names vulture finds unused that a framework or a protocol uses, not a call in sealane.

``make lint`` runs vulture over ``src``, ``tests``, ``benchmarks`` and this file; each entry says
which use vulture cannot see. Handlers registered by a decorator (routes, exception handlers,
event listeners) are covered by ``ignore_decorators`` in ``pyproject.toml`` instead.
"""

from vulture.whitelist_utils import Whitelist

_ = Whitelist()

# PEP 562: sealane.__version__ is looked up through the module's __getattr__.
_.__getattr__
# Signatures (typing.Protocol) shared by a C kernel and its Python twin, and zlib's keywords.
_.__call__
_.wbits
# SQLAlchemy's TypeDecorator interface.
_.impl
_.cache_ok
_.coltype
# Alembic reads these module globals of every migration script.
_.down_revision
_.branch_labels
_.depends_on
# Starlette's Convertor interface (api/route.py).
_.regex
_.to_string
# Dask's WorkerPlugin interface (fleet/_dask.py).
_.setup
_.worker
# google-re2's Options, set by attribute (service/fields/patterns.py).
_.log_errors
_.max_mem
# Pydantic: model configuration, and MCP structured-output fields the SDK serialises.
_.model_config
_.prev
_.pod_vessel_imo
_.pod_timezone
_.reported_set_aside
_.ports_source
_.vessel_dimensions
_.terminal_name
_.window_hours
_.observed_from
_.observed_to
# Columns written by the ORM and read by SQL (store/models/reference.py).
_.received_via
_.received_at
# Members of a vocabulary (StrEnum): whole even where no code names one.
_.SUNDA
_.GIBRALTAR
_.BERING
_.MAGELLAN
_.DARDANELLES
_.OFF_DOCK
_.DROPPED
_.LOADED
# Read by web/templates/map.html.
_.anchor
_.view_box_text
_.label_size
# The standard library's server interfaces, and uvicorn's, set or overridden in tests and
# benchmarks (http.server handlers, socketserver, uvicorn.Server.should_exit).
_.do_GET
_.do_PUT
_.do_PATCH
_.do_DELETE
_.log_message
_.daemon_threads
_.request_queue_size
_.protocol_version
_.disable_nagle_algorithm
_.should_exit
_.binary_location
_.__path__
_.__package__
# pytest: hooks, module marks, fixtures asked for their effect and parameters of a table.
_.pytest_configure
_.pytest_terminal_summary
_.pytestmark
_.zlib_only
_.src
# Kept in a received request for a test to read (tests/webhooks/receiver.py).
_.header_items
_.at_monotonic_s
# websockets' connect calls process_redirect on a redirect answer (feeds/ais/aisstream.py).
_.process_redirect
# Pydantic output fields the MCP SDK serialises (mcp/reliability_outputs.py).
_.on_time_tolerance_hours
# benchmarks/_scale_ingest.py's ingest rates, called by benchmarks/scale.py --ingest (issue 41;
# the other half of that benchmark is written beside this one).
_.ingest_rates
