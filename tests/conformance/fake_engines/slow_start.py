"""Takes a second to start (loading its tables, say) before it reads anything."""

import time

from fake_base import serve

time.sleep(1.0)
serve()
