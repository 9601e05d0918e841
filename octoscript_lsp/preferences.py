"""Editor preferences under `octoscript.*` that are not catalogs.

Read from `initializationOptions.octoscript` and from
`workspace/didChangeConfiguration` `settings.octoscript`, beside the catalogs
(catalogs/store.py) but independent of them:

- `completion` omitted: the current preferences stay;
- `completion` an object: replaces them, a missing or non-boolean
  `prefillRequiredFields` meaning off;
- `completion` anything else (`null` included), or `settings` /
  `settings.octoscript` not an object: back to the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass

SETTINGS_KEY = "octoscript"
COMPLETION_KEY = "completion"
PREFILL_KEY = "prefillRequiredFields"


@dataclass(frozen=True, slots=True)
class Preferences:
    # Completion of a catalog method inserts `method({required: ...})` as a
    # snippet (only for clients that support snippets).
    prefill_required_fields: bool = False


DEFAULTS = Preferences()


def from_initialization_options(options: object) -> Preferences:
    if not isinstance(options, dict):
        return DEFAULTS
    return _from_section(options.get(SETTINGS_KEY), DEFAULTS)


def from_settings(settings: object, current: Preferences) -> Preferences:
    if not isinstance(settings, dict):
        return DEFAULTS
    if SETTINGS_KEY not in settings:
        return current
    return _from_section(settings[SETTINGS_KEY], current)


def _from_section(section: object, current: Preferences) -> Preferences:
    if not isinstance(section, dict):
        return DEFAULTS
    if COMPLETION_KEY not in section:
        return current
    completion = section[COMPLETION_KEY]
    if not isinstance(completion, dict):
        return DEFAULTS
    return Preferences(prefill_required_fields=completion.get(PREFILL_KEY) is True)
