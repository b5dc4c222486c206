"""The offline build of the engine's data files (re-runnable, no network access).

``python -m sealane.routing.build [--out DIR] [--only STEP]`` (``make data``) starts from the
``searoute`` package's marine network and port list and writes ``marnet.npz`` (graph, passage
tags, snapping index, core graph, landmark tables, hierarchies: :mod:`.graphfile`), ``ports.csv``,
``corridors.geojson`` (:mod:`.pipeline`) and ``landmask.npz`` (:mod:`.globe`);
``python -m sealane.routing.build.webland land-50m.json`` writes the web map's ``land.npz``.
Needs the ``build`` extra and Debian's ``gmt-gshhg-full``. The engine never imports this
package: it reads the files through :mod:`sealane.routing.data.formats`, as the build writes them.
"""
