"""The web app: deep links and tracking pages, server-rendered HTML with an offline map.

A shell like the API: each page parses its request, calls the application layer and renders a
template; failures become error pages in one place (:mod:`.errors`). A regular package (not a
namespace one), so the import contract sees it.
"""
