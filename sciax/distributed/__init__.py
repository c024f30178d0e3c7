"""Multi-process runs: :func:`initialize` before any computation, then ``pmap``
collectives span the devices of every process."""

from sciax._src.distributed import initialize as initialize
from sciax._src.distributed import process_count as process_count
from sciax._src.distributed import process_index as process_index
from sciax._src.distributed import shutdown as shutdown
