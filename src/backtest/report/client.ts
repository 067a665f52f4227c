/**
 * The page script of the report, as text (it runs in the browser, not in Node). It reads the
 * embedded JSON and draws with the inlined charting library; it builds no HTML from the data
 * (tables are rendered in Node, escaped), and it sets `window.reportState` for the browser test.
 */
import { REPORT_COLOURS } from './colours.js';

export const CLIENT_SCRIPT = `(function () {
  'use strict';
  var C = ${JSON.stringify(REPORT_COLOURS)};
  var LC = window.LightweightCharts;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var state = { charts: 0, markers: [], ready: false };
  window.reportState = state;

  function line(points) {
    return points.map(function (p) { return { time: p[0], value: Number(p[1]) }; });
  }

  function chart(id) {
    var el = document.getElementById(id);
    if (el === null) return null;
    state.charts += 1;
    return LC.createChart(el, {
      autoSize: true,
      layout: { background: { type: 'solid', color: '#ffffff' }, textColor: '#37414b', fontSize: 12 },
      grid: { vertLines: { color: '#f0f2f5' }, horzLines: { color: '#f0f2f5' } },
      rightPriceScale: { borderColor: '#d0d7de' },
      timeScale: { borderColor: '#d0d7de', timeVisible: true, secondsVisible: false },
      crosshair: { mode: 0 }
    });
  }

  function equity() {
    var c = chart('chart-equity');
    if (c === null) return;
    if (data.hold !== null) {
      var h = c.addSeries(LC.LineSeries, { color: C.hold, lineWidth: 1, lineStyle: 2, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } });
      h.setData(line(data.hold.points));
    }
    var s = c.addSeries(LC.LineSeries, { color: C.equity, lineWidth: 2, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } });
    s.setData(line(data.equity));
    c.timeScale().fitContent();
  }

  function drawdown() {
    var c = chart('chart-drawdown');
    if (c === null) return;
    var s = c.addSeries(LC.AreaSeries, {
      lineColor: C.drawdown, topColor: C.drawdownFill, bottomColor: C.drawdownFill, lineWidth: 2,
      // Its own formatter: the library's 'percent' format rounded -0.8 to "-1.0%" on the axis.
      invertFilledArea: true, priceFormat: { type: 'custom', minMove: 0.0001, formatter: function (v) { return v.toFixed(2) + ' %'; } }
    });
    s.setData(line(data.drawdown));
    c.timeScale().fitContent();
    // For the browser test: the axis label of a value, and the values at the pane's top and bottom.
    state.drawdownLabel = function (v) { return s.priceFormatter().format(v); };
    state.drawdownScale = function () {
      var h = document.getElementById('chart-drawdown').clientHeight - c.timeScale().height();
      return [s.coordinateToPrice(0), s.coordinateToPrice(h)];
    };
  }

  function market(m, i) {
    var c = chart('chart-price-' + i);
    if (c === null) return;
    var step = Math.pow(10, -m.precision);
    var s = c.addSeries(LC.LineSeries, { color: C.price, lineWidth: 1, priceFormat: { type: 'price', precision: m.precision, minMove: step } });
    s.setData(line(m.points));
    var markers = m.markers.map(function (k) {
      var buy = k[1] === 'b';
      return { time: k[0], position: buy ? 'belowBar' : 'aboveBar', shape: buy ? 'arrowUp' : 'arrowDown', color: buy ? C.buy : C.sell };
    });
    LC.createSeriesMarkers(s, markers);
    state.markers[i] = markers.length;
    c.timeScale().fitContent();
  }

  equity();
  drawdown();
  data.markets.forEach(market);
  // Two frames: the library paints on the next animation frame after setData.
  requestAnimationFrame(function () { requestAnimationFrame(function () { state.ready = true; }); });
})();`;
