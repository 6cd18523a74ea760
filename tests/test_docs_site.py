"""The built docs site as a reader sees it, in a real headless Chromium (Selenium).

Needs the site built (``make docs``: docs/_build/html) and Chromium with its driver from the
system's packages (Debian: ``apt-get install chromium chromium-driver``); ``make test`` does both.
Every page must render with a title and body text, every image must load, and every link to
another page or anchor of the site must lead somewhere. A screenshot of each game's page goes
to docs/_build/screenshots/.
"""

import pathlib
import shutil
from urllib.parse import unquote, urldefrag, urlparse

import pytest

from mancala_marl.games import VARIANTS

pytestmark = pytest.mark.docs

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"
HTML = DOCS / "_build" / "html"
SCREENSHOTS = DOCS / "_build" / "screenshots"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
# Sphinx's own pages (search, index of names) need JavaScript state; the reader's pages are checked.
SPHINX_PAGES = {"search.html", "genindex.html", "py-modindex.html"}


@pytest.fixture(scope="module")
def browser():
    if not (HTML / "index.html").exists():
        pytest.fail("the docs are not built: run `make docs` first (docs/_build/html/index.html)")
    if not BROWSER or not pathlib.Path(DRIVER).exists():
        pytest.fail("Chromium and its driver are needed: apt-get install -y chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,2000"):
        options.add_argument(flag)
    # The driver from the system's packages: Selenium Manager downloads nothing.
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def site_pages():
    return sorted(p for p in HTML.rglob("*.html")
                  if p.name not in SPHINX_PAGES and "_sources" not in p.parts and "_static" not in p.parts)


def test_every_page_renders_with_its_images_and_links(browser):
    pages = site_pages()
    assert len(pages) >= 20, f"only {len(pages)} pages built"
    problems, anchors, links = [], {}, []
    for page in pages:
        browser.get(page.as_uri())
        title = browser.execute_script("return (document.querySelector('article h1') || {}).textContent || ''")
        text = browser.execute_script("return (document.querySelector('article') || document.body).innerText")
        if not title.strip() or len(text) < 100:
            problems.append(f"{page.relative_to(HTML)}: no heading or almost no text")
        broken = browser.execute_script(
            "return Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
        problems += [f"{page.relative_to(HTML)}: image does not load: {src}" for src in broken]
        anchors[page] = set(browser.execute_script("return Array.from(document.querySelectorAll('[id]')).map(e => e.id)"))
        links += [(page, href) for href in browser.execute_script(
            "return Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")]
    for page, href in links:
        url, fragment = urldefrag(href)
        if urlparse(url).scheme != "file":
            continue  # the site links no other site; anything else is the reader's own concern
        target = pathlib.Path(unquote(urlparse(url).path))
        if not target.exists():
            problems.append(f"{page.relative_to(HTML)}: link to a missing file {target}")
        elif fragment and target.suffix == ".html" and target in anchors and fragment not in anchors[target]:
            problems.append(f"{page.relative_to(HTML)}: link to a missing anchor {target.name}#{fragment}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", VARIANTS)
def test_game_page_screenshot(browser, name):
    page = HTML / "games" / f"{name}.html"
    browser.get(page.as_uri())
    pictures = browser.execute_script(
        "return Array.from(document.querySelectorAll('article img')).map(i => i.naturalWidth)")
    assert len(pictures) >= 3 and all(width > 0 for width in pictures), pictures  # the start, a capture, the end at least
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    height = browser.execute_script("return document.body.scrollHeight")
    browser.set_window_size(1280, min(height, 8000))
    assert browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
    browser.set_window_size(1280, 2000)
