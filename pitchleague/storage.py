"""The static files' storage in production: WhiteNoise's compressed files under hashed names."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Module scripts import each other by their hashed names too (``import … from "./scorer.js"`` is rewritten), so a
    page that preloads the hashed file gets it once, cached for good, never the plain name's short-lived copy."""

    support_js_module_import_aggregation = True
