"""Settings for Pitch League, read from the environment with safe development defaults."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from psycopg_pool import ConnectionPool

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "axes",
    "django_tasks_db",
    "scores",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "scores.errors.MethodNotAllowedPage",  # After LocaleMiddleware: the 405 page is in the request's language.
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scores.accounts.language.AccountLanguageMiddleware",  # A log-in brings the account's language back (its cookie).
    "scores.accounts.offline_pages.AccountHeaderMiddleware",  # Whose each page is, for the offline copies.
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # Last, as axes asks: turns a locked-out log-in into its 429 page.
]

# HTML compressed by the app where no proxy in front does it (make prod, make lan; DEPLOY.md): right after WhiteNoise,
# which sends static files compressed already, and before everything that writes the body. Django's GZipMiddleware
# pads each answer by a random length and the CSRF token is masked anew on every page (BREACH, DEPLOY.md).
COMPRESS_HTML = env_bool("COMPRESS_HTML", False)
if COMPRESS_HTML:
    MIDDLEWARE.insert(MIDDLEWARE.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1, "django.middleware.gzip.GZipMiddleware")

ROOT_URLCONF = "pitchleague.urls"
WSGI_APPLICATION = "pitchleague.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite by default, in the project folder; DATABASE_URL=postgres://… for PostgreSQL.
DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL and IMMEDIATE transactions: concurrent writers queue instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a real file too, so threads meet the same locking as production, not shared-cache memory.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The pool checks a connection before lending it (a round trip): after a database restart its dead connections
    # are dropped and replaced, instead of each failing one request. A request waits at most 10 s for a connection.
    DATABASES["default"]["OPTIONS"] = {"pool": {"check": ConnectionPool.check_connection, "timeout": 10}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background tasks (django.tasks) kept in the database and run by `manage.py db_worker`: a web worker hands
# an import over and answers the next request at once. No broker to run beside the database.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# History import. The largest file the import page takes, refused before its body is read when the
# request says its length (the proxy in front has its own limit, DEPLOY.md); and the most games one file may hold.
IMPORT_MAX_UPLOAD_SIZE = int(os.environ.get("IMPORT_MAX_UPLOAD_SIZE", str(10 * 1024 * 1024)))
IMPORT_MAX_GAMES = int(os.environ.get("IMPORT_MAX_GAMES", "5000"))
# The most imports one person may have waiting or running at once; the next upload is refused until one is over.
IMPORT_MAX_WAITING = int(os.environ.get("IMPORT_MAX_WAITING", "3"))
# An import whose worker has given no sign of life for this many seconds (killed, out of memory) is started again
# once, then given up (scores.history.tasks.watch_import). A running import's worker says it is alive six times as often.
IMPORT_STALE_AFTER = float(os.environ.get("IMPORT_STALE_AFTER", "120"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # "aaaaaaaaaaaa" is 12 characters long and in no common list.
    {"NAME": "scores.accounts.passwords.DistinctCharactersValidator", "OPTIONS": {"min_distinct": 5}},
]

# The login limit (scores.accounts.login_limit, DEPLOY.md): 5 failed log-ins for one username from one address lock that
# username for that address for 15 minutes; other addresses can still log in. Every log-in form is counted:
# axes' backend runs inside authenticate().
AUTHENTICATION_BACKENDS = ["scores.accounts.login_limit.LoginLimitBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_HANDLER = "scores.accounts.login_limit.AtomicDatabaseHandler"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # Refused attempts are not counted: the lock ends on time.
AXES_CLIENT_IP_CALLABLE = "scores.accounts.login_limit.client_address"
AXES_LOCKOUT_CALLABLE = "scores.accounts.login_limit.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # No table of every successful log-in, kept forever.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "scores:home"
LOGOUT_REDIRECT_URL = "scores:home"
# Password-reset mail: printed to the console in development, sent over SMTP (EMAIL_HOST…) in production. Only the
# SMTP backend takes the SMTP options: the console and locmem backends refuse options they do not know.
mail_backend = os.environ.get(
    "EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend"
)
MAILERS: dict[str, dict[str, object]] = {"default": {"BACKEND": mail_backend}}
if mail_backend == "django.core.mail.backends.smtp.EmailBackend":
    MAILERS["default"]["OPTIONS"] = {
        "host": os.environ.get("EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("EMAIL_PORT", "587")),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env_bool("EMAIL_USE_TLS", True),
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "pitch-league@localhost")

LANGUAGE_CODE = "en"
# The players' languages. Django knows no Cebuano or Maltese: ScoresConfig.ready adds them to its
# LANG_INFO, locale/ has the catalogs (built by `make messages` / compilemessages), pitchleague/formats the
# date and number formats of the languages Django has none for.
LANGUAGES = [
    ("en", _("English")),
    ("af", _("Afrikaans")),
    ("ceb", _("Cebuano")),
    ("it", _("Italian")),
    ("mt", _("Maltese")),
    ("vi", _("Vietnamese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switcher's choice outlives the browser session: a year (the account keeps it too, scores.accounts.language).
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
FORMAT_MODULE_PATH = ["pitchleague.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "pitchleague.storage.StaticFilesStorage" if not DEBUG else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# Every script and stylesheet is served by the app; inline ones carry a nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
SECURE_REFERRER_POLICY = "same-origin"
# A refused CSRF check gets the app's own page, in the player's language (Django's is English).
CSRF_FAILURE_VIEW = "scores.table.views.pages.csrf_failure"
X_FRAME_OPTIONS = "DENY"

# HTTPS only in production (DEBUG off); each can be set from the environment.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # The load balancer checks over plain HTTP.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
if env_bool("BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Sessions live in the database, so any app server can answer any request; a malformed cookie is no session.
SESSION_ENGINE = "scores.accounts.sessions"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    # Errors (500s included, with tracebacks) go to standard error, where the process manager keeps them.
    "loggers": {
        "django": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
        "scores": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    },
}
