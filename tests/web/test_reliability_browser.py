"""The reliability page in headless Chromium: reached from the shipment list, its four charts
drawn and laid out, axe finding nothing serious, nothing requested from another host, and no
sideways scrolling at phone width."""

from __future__ import annotations

import pytest

from tests.web import chromium

from .conftest import LiveServer
from .test_browser import (
    BLOCKING,
    DESKTOP,
    PHONE,
    artefacts,
    axe_violations,
    browser,
    full_page_screenshot,
    requested_urls,
    sign_in,
    started_browser,
    submit,
    visit,
)
from .test_reliability_page import PAGE, seed_reliability

pytestmark = pytest.mark.slow
webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

__all__ = ["browser"]


@pytest.fixture(scope="module")
def server(live_server: LiveServer) -> LiveServer:
    """The live demo with the reliability voyages in its routing account."""
    seed_reliability(live_server.demo)
    return live_server


def test_reliability__from_the_list_to_four_charts(browser: WebDriver, server: LiveServer) -> None:
    sign_in(browser, server, server.demo.routing_key)
    link = browser.find_element(By.LINK_TEXT, "How reliable are your carriers and lanes?")
    link.click()
    assert browser.find_element(By.TAG_NAME, "h1").text == "Reliability"
    for name, value in (("pol", "CNSHA"), ("pod", "DEHAM")):
        browser.find_element(By.ID, name).send_keys(value)
    submit(browser, "form.filters button")
    assert "pol=CNSHA" in browser.current_url and "pod=DEHAM" in browser.current_url
    drawn = browser.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert len(drawn) == 4
    for chart in drawn:
        assert chart.size["width"] > 200 and chart.size["height"] > 40
        assert chart.get_attribute("role") == "img"
    bars = browser.find_elements(By.CSS_SELECTOR, "svg.chart rect.bar")
    assert len(bars) >= 2 + 1 + 2  # on-time bars, MAEU's transit range, two days of waiting
    assert browser.find_elements(By.CSS_SELECTOR, "svg.chart polyline.series")


def test_reliability__accessible_and_local_only(server: LiveServer) -> None:
    source = chromium.ensure_axe()
    with started_browser() as fresh:
        sign_in(fresh, server, server.demo.routing_key)
        fresh.execute_cdp_cmd("Network.enable", {})  # type: ignore[attr-defined]
        fresh.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})  # type: ignore[attr-defined]
        requested_urls(fresh)
        found = {}
        for path in (PAGE, "/reliability", "/reliability?carrier=M*"):
            visit(fresh, server.url + path)
            found[path] = [
                (v["id"], v["impact"], v["help"])
                for v in axe_violations(fresh, source)
                if v["impact"] in BLOCKING
            ]
        urls = requested_urls(fresh)
    assert found == {path: [] for path in found}
    assert [u for u in urls if not u.startswith(("http://127.0.0.1:", "data:", "about:"))] == []


def test_reliability__fits_a_phone(browser: WebDriver, server: LiveServer) -> None:
    sign_in(browser, server, server.demo.routing_key, PAGE)
    try:
        for size_name, (width, height) in (("desktop", DESKTOP), ("phone", PHONE)):
            browser.set_window_size(width, height)
            visit(browser, server.url + PAGE)
            wide = browser.execute_script(
                "return document.documentElement.scrollWidth - window.innerWidth"
            )
            assert wide <= 0, f"the reliability page scrolls sideways at {size_name} width"
            full_page_screenshot(browser, artefacts() / f"reliability-{size_name}.png")
    finally:
        browser.set_window_size(*DESKTOP)
