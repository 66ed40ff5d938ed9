"""The demo app with page authentication, so that its pages may be announced under a public URL.

Nobody is ever signed in (every page answers 401): the tests that serve it read the links, not the pages.
"""

from askback.demo import app

app.page_auth = lambda request: None
