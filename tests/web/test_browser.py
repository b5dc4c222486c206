"""The web app in a real browser: Debian's headless Chromium driven by Selenium.

Sign-in and sign-out, the five deep-link resolutions, the map's drawn elements, pan and zoom,
an axe-core accessibility run, screenshots at desktop and phone width (kept under
``build/test-artefacts/web`` or ``$SEALANE_TEST_ARTEFACTS``), bad input, an expired session, and
the browser's own record of every request it made while the pages loaded: none leaves
127.0.0.1.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from sealane.service.core.paging import PageRequest
from sealane.service.tracking.containers import list_containers
from sealane.service.tracking.filters import TrackingFilter
from sealane.service.tracking.shipments import list_shipments
from tests.web import chromium

from .conftest import OTHER_NUMBER, LiveServer

pytestmark = pytest.mark.slow

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

DESKTOP = (1280, 900)
PHONE = (390, 844)
#: Impacts axe reports that fail the run.
BLOCKING = {"serious", "critical"}


def artefacts() -> Path:
    """Where this run keeps its screenshots."""
    default = Path(__file__).resolve().parents[2] / "build" / "test-artefacts" / "web"
    path = Path(os.environ.get("SEALANE_TEST_ARTEFACTS") or default)
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextmanager
def started_browser() -> Iterator[WebDriver]:
    """Headless Chromium with a fresh profile, logging every network request."""
    binary, driver = chromium.ensure_chromium()
    options = webdriver.ChromeOptions()
    options.binary_location = str(binary)
    for flag in (*chromium.FLAGS, f"--user-data-dir={chromium.new_profile()}"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    chrome = webdriver.Chrome(options=options, service=Service(executable_path=str(driver)))
    chrome.set_page_load_timeout(60)
    try:
        yield chrome
    finally:
        chrome.quit()


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    """One browser for the module's tests (starting Chromium is the slow part)."""
    with started_browser() as chrome:
        yield chrome


@pytest.fixture
def fresh_browser() -> Iterator[WebDriver]:
    """A browser of its own, for a test that must see every request: nothing in its caches
    and nothing in its log from the tests before it."""
    with started_browser() as chrome:
        yield chrome


def requested_urls(browser: WebDriver) -> list[str]:
    """Every URL the browser asked for since the last call (from its DevTools log)."""
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def visit(browser: WebDriver, url: str) -> None:
    """Open ``url`` and wait until a new document has loaded in full. ChromeDriver's ``get``
    can come back while a navigation started before it (a form's redirect) is settling, and
    the page read next was then the one before (CI failed twice so); a mark left on the old
    window tells the two documents apart."""
    browser.execute_script("window.__sealaneLeft = true;")
    browser.get(url)
    WebDriverWait(browser, 30).until(new_document)


def submit(browser: WebDriver, button: str) -> None:
    """Click the form button ``button`` (a CSS selector) and wait for the page it leads to."""
    browser.execute_script("window.__sealaneLeft = true;")
    browser.find_element(By.CSS_SELECTOR, button).click()
    WebDriverWait(browser, 30).until(new_document)


def new_document(browser: WebDriver) -> bool:
    """Whether the window holds a document other than the one marked, loaded in full."""
    return bool(
        browser.execute_script(
            "return window.__sealaneLeft === undefined && document.readyState === 'complete';"
        )
    )


def sign_in(browser: WebDriver, server: LiveServer, key: str, path: str = "/shipments") -> None:
    """Open ``path``, meet the sign-in form, sign in, and wait to be back at ``path``."""
    browser.delete_all_cookies()
    visit(browser, server.url + path)
    field = WebDriverWait(browser, 20).until(
        expected_conditions.presence_of_element_located((By.ID, "api_key"))
    )
    field.send_keys(key)
    submit(browser, "form[action='/sign-in'] button")
    assert "/sign-in" not in browser.current_url, shown(browser)


def shown(browser: WebDriver) -> str:
    """What the browser shows, for an assertion's message: its URL, title and main text."""
    main = browser.find_elements(By.TAG_NAME, "main")
    text = main[0].text[:500] if main else browser.page_source[:500]
    return f"at {browser.current_url} ({browser.title!r}): {text}"


def path_and_query(browser: WebDriver) -> tuple[str, dict[str, list[str]]]:
    parts = urlsplit(browser.current_url)
    return parts.path, parse_qs(parts.query)


def selected_container(browser: WebDriver) -> str | None:
    """The id of the container the tracking page shows as selected."""
    found = browser.find_elements(By.CSS_SELECTOR, ".containers a[aria-current='true']")
    if not found:
        return None
    return parse_qs(urlsplit(found[0].get_attribute("href") or "").query)["container"][0]


def test_sign_in_and_sign_out(browser: WebDriver, live_server: LiveServer) -> None:
    sign_in(browser, live_server, live_server.demo.routing_key)
    assert path_and_query(browser)[0] == "/shipments"
    assert browser.find_element(By.TAG_NAME, "h1").text == "Shipments"
    submit(browser, "form.sign-out button")
    assert "/sign-in" in browser.current_url, shown(browser)
    assert "You are signed out." in browser.find_element(By.TAG_NAME, "main").text
    visit(browser, live_server.url + "/shipments")
    assert path_and_query(browser)[0] == "/sign-in"


def numbers(server: LiveServer) -> dict[str, Any]:
    """Numbers of the demo's routing account for each resolution step."""
    context = server.demo.app.state.sealane.context
    caller = server.demo.routing
    shipment = list_shipments(
        context, caller, TrackingFilter(number="TESTDEMO0003"), PageRequest(1, 1), ("containers",)
    ).items[0]
    containers = shipment.containers or ()
    every = list_containers(context, caller, TrackingFilter(), PageRequest(1, 100)).items
    return {"shipment": shipment, "container": containers[-1], "all_containers": every}


def test_deep_links__each_resolution_step(browser: WebDriver, live_server: LiveServer) -> None:
    sign_in(browser, live_server, live_server.demo.routing_key)
    found = numbers(live_server)
    shipment, container = found["shipment"], found["container"]
    spaced = f"{container.number[:4]} {container.number[4:10]}-{container.number[10:]}".lower()
    # The partial container text must match this container only.
    partial = next(
        container.number[i : i + 6]
        for i in range(len(container.number) - 5)
        if sum(container.number[i : i + 6] in c.number for c in found["all_containers"]) == 1
    )
    cases = [
        (spaced, f"/shipments/{shipment.id}", container.id),  # (1) exact container number
        ("testdemo0003", f"/shipments/{shipment.id}", (shipment.containers or ())[0].id),  # (2)
        (partial, f"/shipments/{shipment.id}", container.id),  # (3) partial container
        ("DEMO0003", f"/shipments/{shipment.id}", (shipment.containers or ())[0].id),  # (4)
    ]
    for text, path, selected in cases:
        visit(browser, f"{live_server.url}/shipments/find?q={text}")
        assert path_and_query(browser)[0] == path, text
        assert selected_container(browser) == selected, text
    visit(browser, f"{live_server.url}/shipments/find?q=NOSUCHNUMBER")  # (5) no match
    assert path_and_query(browser) == ("/shipments", {"q": ["NOSUCHNUMBER"]})
    assert browser.find_element(By.ID, "q").get_attribute("value") == "NOSUCHNUMBER"


def test_deep_links__another_accounts_number_is_no_match(
    browser: WebDriver, live_server: LiveServer
) -> None:
    sign_in(browser, live_server, live_server.demo.routing_key)
    visit(browser, f"{live_server.url}/shipments/find?q={OTHER_NUMBER}")
    assert path_and_query(browser) == ("/shipments", {"q": [OTHER_NUMBER]})
    assert "No shipments match" in browser.find_element(By.TAG_NAME, "main").text


def tracking_page(server: LiveServer, number: str) -> str:
    context = server.demo.app.state.sealane.context
    page = list_shipments(
        context, server.demo.routing, TrackingFilter(number=number), PageRequest(1, 1)
    )
    return f"{server.url}/shipments/{page.items[0].id}"


def test_map__draws_ports_track_vessel_and_route_across_the_pacific(
    browser: WebDriver, live_server: LiveServer
) -> None:
    sign_in(browser, live_server, live_server.demo.routing_key)
    visit(browser, tracking_page(live_server, "TESTDEMO0002"))  # Pusan -> Tanjung Pelepas -> LA
    drawn = browser.execute_script(
        """
        const svg = document.querySelector('svg[data-map]');
        const box = el => { const b = el.getBBox(); return [b.x, b.y, b.width, b.height]; };
        return {
          ports: [...svg.querySelectorAll('path.port')].map(p => p.dataset.label),
          sailed: [...svg.querySelectorAll('path.route-sailed')].map(box),
          ahead: [...svg.querySelectorAll('path.route-ahead')].map(box),
          vessel: [...svg.querySelectorAll('g.vessel')].map(v => v.dataset.heading),
          land: [...svg.querySelectorAll('.land use')].map(u => u.getBBox().width),
          view: svg.getAttribute('viewBox'),
        };
        """
    )
    assert drawn["ports"] == ["POL", "TS1", "POD"]
    assert drawn["sailed"] and drawn["ahead"], drawn
    assert len(drawn["vessel"]) == 1
    assert all(width > 300 for width in drawn["land"])  # the shipped land, three worlds
    for _x, _y, width, _height in drawn["sailed"] + drawn["ahead"]:
        assert width < 180, "a line spans half the world: drawn across the antimeridian?"
    legend = browser.find_element(By.CSS_SELECTOR, "figure.map figcaption").text
    assert "Route ahead, arriving" in legend and "Vessel, heading" in legend
    before = float(drawn["view"].split()[2])
    browser.find_element(By.CSS_SELECTOR, "[data-map-zoom='in']").click()
    view = browser.execute_script(
        "return document.querySelector('svg[data-map]').getAttribute('viewBox');"
    )
    after = float(view.split()[2])
    assert after == pytest.approx(before * 0.8, rel=1e-3)


def test_map__account_without_routing_sees_ports_and_a_note(
    browser: WebDriver, live_server: LiveServer
) -> None:
    sign_in(browser, live_server, live_server.demo.plain_key)
    context = live_server.demo.app.state.sealane.context
    page = list_shipments(context, live_server.demo.plain, TrackingFilter(), PageRequest(1, 1))
    visit(browser, f"{live_server.url}/shipments/{page.items[0].id}")
    assert browser.find_elements(By.CSS_SELECTOR, "svg[data-map] path.port"), shown(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "svg[data-map] path.route")
    assert "routing feature" in browser.find_element(By.CSS_SELECTOR, "p.note").text


def test_pages__no_request_leaves_127_0_0_1(
    fresh_browser: WebDriver, live_server: LiveServer
) -> None:
    browser = fresh_browser
    sign_in(browser, live_server, live_server.demo.routing_key)
    # A script kept in the browser's memory cache is reused without a request in the DevTools
    # log: a browser of its own (a shared one failed this in CI twice) with its cache off asks
    # for every asset again.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    requested_urls(browser)  # forget the sign-in
    for path in ("/sign-in", "/shipments", "/track", "/v2/docs"):
        visit(browser, live_server.url + path)
    visit(browser, live_server.url + "/v2/redoc")  # drawn by its script after the load
    WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".menu-content"))
    visit(browser, tracking_page(live_server, "TESTDEMO0002"))
    urls = requested_urls(browser)
    assert any(url.endswith("/static/land.svg") for url in urls)
    assert any("swagger-ui-bundle.js" in url for url in urls)
    outside = [
        u for u in urls if not u.startswith(("http://127.0.0.1:", "data:", "blob:", "about:"))
    ]
    assert outside == []


def test_api_docs__render_from_local_assets(browser: WebDriver, live_server: LiveServer) -> None:
    browser.get_log("browser")  # forget what came before
    visit(browser, live_server.url + "/v2/docs")
    WebDriverWait(browser, 30).until(
        lambda b: len(b.find_elements(By.CSS_SELECTOR, ".opblock")) > 10
    )
    browser.find_elements(By.CSS_SELECTOR, ".opblock-summary")[0].click()  # opens, styled
    visit(browser, live_server.url + "/v2/redoc")
    WebDriverWait(browser, 30).until(
        lambda b: "shipments" in b.find_element(By.TAG_NAME, "body").text
    )
    # both pages under their Content-Security-Policy: nothing was refused (ReDoc's bundle is
    # served without its remote logo)
    refused = [
        entry["message"]
        for entry in browser.get_log("browser")
        if "Content Security Policy" in entry["message"]
    ]
    assert refused == []


def axe_violations(browser: WebDriver, source: str) -> list[dict[str, Any]]:
    browser.execute_script(source)
    result: list[dict[str, Any]] = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then(r => done(r.violations))"
        ".catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e)}]));"
    )
    return result


def test_accessibility__no_serious_or_critical_violations(
    browser: WebDriver, live_server: LiveServer
) -> None:
    source = chromium.ensure_axe()
    browser.delete_all_cookies()
    visit(browser, live_server.url + "/sign-in")
    found = {"/sign-in": axe_violations(browser, source)}
    sign_in(browser, live_server, live_server.demo.routing_key)
    pages = ["/shipments", "/track", "/shipments?q=NOSUCH", "/shipments/unknown"]
    for path in pages:
        visit(browser, live_server.url + path)
        found[path] = axe_violations(browser, source)
    visit(browser, tracking_page(live_server, "TESTDEMO0002"))
    found["tracking page"] = axe_violations(browser, source)
    blocking = {
        page: [(v["id"], v["impact"], v["help"]) for v in violations if v["impact"] in BLOCKING]
        for page, violations in found.items()
    }
    assert blocking == {page: [] for page in found}


def full_page_screenshot(browser: WebDriver, path: Path) -> None:
    """The whole page, not only the window, as a PNG (Chromium's DevTools screenshot)."""
    width, height = browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
    shot = browser.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip}
    )
    path.write_bytes(base64.b64decode(shot["data"]))


def test_screenshots__desktop_and_phone(browser: WebDriver, live_server: LiveServer) -> None:
    sign_in(browser, live_server, live_server.demo.routing_key)
    shots = {
        "list": live_server.url + "/shipments",
        "tracking": tracking_page(live_server, "TESTDEMO0002"),
    }
    folder = artefacts()
    try:
        for size_name, (width, height) in (("desktop", DESKTOP), ("phone", PHONE)):
            browser.set_window_size(width, height)
            for name, url in shots.items():
                visit(browser, url)
                wide = browser.execute_script(
                    "return document.documentElement.scrollWidth - window.innerWidth"
                )
                assert wide <= 0, f"{name} scrolls sideways at {size_name} width"
                path = folder / f"{name}-{size_name}.png"
                full_page_screenshot(browser, path)
                assert path.stat().st_size > 10_000
                if name == "tracking":
                    figure = browser.find_element(By.CSS_SELECTOR, "figure.map")
                    assert figure.screenshot(str(folder / f"map-{size_name}.png"))
    finally:
        browser.set_window_size(*DESKTOP)


def test_bad_input__script_in_q_is_shown_never_run(
    browser: WebDriver, live_server: LiveServer
) -> None:
    sign_in(browser, live_server, live_server.demo.routing_key)
    attack = "<script>window.__owned=1</script><img src=x onerror=window.__owned=2>"
    visit(browser, f"{live_server.url}/shipments/find?q={attack}")
    assert path_and_query(browser)[0] in ("/shipments", "/shipments/find")
    assert browser.execute_script("return window.__owned === undefined")
    main = browser.find_element(By.TAG_NAME, "main").text
    assert "<script>" in main or browser.find_element(By.TAG_NAME, "h1").text == "Bad request"


def test_bad_input__empty_and_huge_q_and_unknown_shipment(
    browser: WebDriver, live_server: LiveServer
) -> None:
    sign_in(browser, live_server, live_server.demo.routing_key)
    visit(browser, f"{live_server.url}/shipments/find?q=")
    assert path_and_query(browser) == ("/shipments", {})
    visit(browser, f"{live_server.url}/shipments/find?q={'A' * 10_240}")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Bad request"
    visit(browser, f"{live_server.url}/shipments/00000000-0000-0000-0000-000000000000")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not found"


def test_expired_session__signs_in_again_and_returns(
    browser: WebDriver, live_server: LiveServer
) -> None:
    sign_in(browser, live_server, live_server.demo.routing_key)
    clock = live_server.demo.clock
    clock.advance(8 * 3600 + 60)
    try:
        visit(browser, f"{live_server.url}/shipments/find?q=NOSUCHNUMBER")
        assert path_and_query(browser)[0] == "/sign-in"
        assert "Your session has ended" in browser.find_element(By.TAG_NAME, "main").text
        browser.find_element(By.ID, "api_key").send_keys(live_server.demo.routing_key)
        submit(browser, "form[action='/sign-in'] button")
        assert path_and_query(browser) == ("/shipments", {"q": ["NOSUCHNUMBER"]})
    finally:
        clock.advance(-(8 * 3600 + 60))
