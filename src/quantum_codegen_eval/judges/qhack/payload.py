"""QHack's wire codec for the trusted side (the job module is ``jobs/payload.py``)."""

from .jobs.payload import CODEC, Opaque, PayloadError, decode, encode

__all__ = ["CODEC", "Opaque", "PayloadError", "decode", "encode"]
