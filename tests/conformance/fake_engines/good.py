"""A well-behaved fake engine."""

from fake_base import serve

serve()
