// Pan and zoom of the tracking map by changing the SVG's viewBox (map units are degrees).
// Drag or arrow keys pan; the wheel, + / - keys or the buttons zoom; labels and the vessel
// keep their size on screen.
(function () {
  "use strict";
  var MIN_WIDTH = 2, MAX_WIDTH = 720;

  function parse(text) { return text.trim().split(/[\s,]+/).map(Number); }

  function setup(svg) {
    var initial = parse(svg.getAttribute("data-view"));
    var view = initial.slice();
    var labels = svg.querySelector(".labels");
    var vessel = svg.querySelector(".vessel-scale");

    function apply() {
      svg.setAttribute("viewBox", view.map(function (v) { return v.toFixed(3); }).join(" "));
      if (labels) { labels.setAttribute("font-size", (view[2] / 60).toFixed(4)); }
      if (vessel) { vessel.setAttribute("transform", "scale(" + (view[2] / 600).toFixed(5) + ")"); }
    }

    function zoom(factor, cx, cy) {
      var width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, view[2] * factor));
      var k = width / view[2];
      if (cx === undefined) { cx = view[0] + view[2] / 2; cy = view[1] + view[3] / 2; }
      view = [cx - (cx - view[0]) * k, cy - (cy - view[1]) * k, width, view[3] * k];
      apply();
    }

    function toMap(event) {
      var box = svg.getBoundingClientRect();
      var scale = Math.max(view[2] / box.width, view[3] / box.height);
      var offsetX = (box.width - view[2] / scale) / 2, offsetY = (box.height - view[3] / scale) / 2;
      return [view[0] + (event.clientX - box.left - offsetX) * scale,
              view[1] + (event.clientY - box.top - offsetY) * scale, scale];
    }

    svg.addEventListener("wheel", function (event) {
      event.preventDefault();
      var at = toMap(event);
      zoom(event.deltaY > 0 ? 1.25 : 0.8, at[0], at[1]);
    }, { passive: false });

    var drag = null;
    svg.addEventListener("pointerdown", function (event) {
      drag = { x: event.clientX, y: event.clientY, view: view.slice(), scale: toMap(event)[2] };
      svg.setPointerCapture(event.pointerId);
    });
    svg.addEventListener("pointermove", function (event) {
      if (!drag) { return; }
      view[0] = drag.view[0] - (event.clientX - drag.x) * drag.scale;
      view[1] = drag.view[1] - (event.clientY - drag.y) * drag.scale;
      apply();
    });
    function end() { drag = null; }
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);

    svg.addEventListener("keydown", function (event) {
      var step = view[2] / 10, handled = true;
      switch (event.key) {
        case "ArrowLeft": view[0] -= step; apply(); break;
        case "ArrowRight": view[0] += step; apply(); break;
        case "ArrowUp": view[1] -= step; apply(); break;
        case "ArrowDown": view[1] += step; apply(); break;
        case "+": case "=": zoom(0.8); break;
        case "-": case "_": zoom(1.25); break;
        case "0": view = initial.slice(); apply(); break;
        default: handled = false;
      }
      if (handled) { event.preventDefault(); }
    });

    var figure = svg.closest("figure");
    if (figure) {
      figure.querySelectorAll("[data-map-zoom]").forEach(function (button) {
        button.addEventListener("click", function () {
          var what = button.getAttribute("data-map-zoom");
          if (what === "in") { zoom(0.8); }
          else if (what === "out") { zoom(1.25); }
          else { view = initial.slice(); apply(); }
        });
      });
    }
    apply();
  }

  document.querySelectorAll("svg[data-map]").forEach(setup);
})();
