"""Canonical JSON and BLAKE3 fingerprints of valid projections."""

from __future__ import annotations

import json

import blake3

FINGERPRINT_PREFIX = "blake3:"


def canonical_json(value: object) -> bytes:
    """Sorted keys, no insignificant whitespace, raw UTF-8 (no ASCII escaping)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def fingerprint(value: object) -> str:
    return FINGERPRINT_PREFIX + blake3.blake3(canonical_json(value)).hexdigest()
