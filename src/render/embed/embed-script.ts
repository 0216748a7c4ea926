import { LANGUAGES } from '../../i18n/languages.js';
import { translator } from '../../i18n/translator.js';
import { PAGE_PARAMETERS } from '../../query/params.js';

/** The words the element shows, in every language the pages have, taken from the pages' own messages. */
function words(): Record<string, Record<string, string>> {
  return Object.fromEntries(
    LANGUAGES.map((lang) => {
      const t = translator(lang);
      return [
        lang,
        {
          free: t.t('price.free'),
          paid: t.t('price.paid'),
          unknown: t.t('price.unknown'),
          allDay: t.t('when.allDay'),
          online: t.t('where.online'),
          tba: t.t('where.tba'),
          alsoOnline: t.t('where.alsoOnline', { place: '{place}' }),
          none: t.t('embed.none'),
          more: t.t('embed.more'),
          failed: t.t('embed.failed'),
        },
      ];
    }),
  );
}

/**
 * `<tech-events>`: a custom element that lists a query's events on any site. No framework and no build step: the
 * script is written as it is served, reads the keyless API of the service that served it, and draws inside its own
 * shadow root. The service's public base URL is written into the script as served: loaded as a module a script has
 * no `document.currentScript`, and only a module may name `import.meta`, so the one source reads neither. Styles are
 * a constructed stylesheet, which a host page's CSP `style-src` does not govern, so a page that allows only this
 * origin for scripts and connections can embed it; colours follow the host page's `color-scheme` through
 * `light-dark()`.
 */
const SOURCE = String.raw`(function () {
  'use strict';
  if (!window.customElements || customElements.get('tech-events')) return;
  var BASE = __BASE__;
  var WORDS = __WORDS__;
  var PARAMS = __PARAMS__;
  var ZONES = { ch: 'Europe/Zurich', de: 'Europe/Berlin', at: 'Europe/Vienna' };
  var CSS = ':host{display:block;color-scheme:inherit;font:inherit;color:light-dark(#1b1b1f,#e8eaed)}' +
    'ol{list-style:none;margin:0;padding:0}li{padding:.5em 0;border-bottom:1px solid light-dark(#e3e5e8,#2e3136)}' +
    'a{color:light-dark(#0b57d0,#8ab4f8)}.t{font-weight:600}.m{color:light-dark(#5f6368,#a0a4a8);font-size:.9em}' +
    'p{margin:.5em 0}';
  var sheet = null;
  try { sheet = new CSSStyleSheet(); sheet.replaceSync(CSS); } catch (e) { sheet = null; }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function when(e, lang) {
    var country = (/\/(ch|de|at)\/events\//.exec(e.url) || [])[1] || 'ch';
    var zone = ZONES[country];
    var day = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: zone };
    var start = new Date(e.start);
    var text = new Intl.DateTimeFormat(lang, day).format(start);
    if (!e.allDay) {
      text += ' · ' + new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', timeZone: zone }).format(start);
    } else {
      text += ' · ' + WORDS[lang].allDay;
    }
    if (e.end) {
      // An all-day end is the midnight after the last day; a timed one ends on the day it names.
      var last = new Date(new Date(e.end).getTime() - (e.allDay ? 86400000 : 1));
      var fmt = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: zone });
      var key = { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: zone };
      var a = new Intl.DateTimeFormat('en-CA', key).format(start);
      var b = new Intl.DateTimeFormat('en-CA', key).format(last);
      if (b > a) text += ' – ' + fmt.format(last);
    }
    return text;
  }

  // Lower case, without accents or postcodes: to tell whether an address part is the city.
  function fold(s) {
    return s.normalize('NFD').replace(/[\u0300-\u036f\d]/g, '').trim().toLowerCase();
  }

  function where(e, w) {
    if (e.format === 'online') return w.online;
    // As placeText on the server: no city after an address that names it ("…, 8400 Winterthur, Switzerland").
    var named = e.venue && e.city && e.venue.split(',').some(function (p) { return fold(p) === fold(e.city); });
    var place = (named ? e.venue : [e.venue, e.city].filter(Boolean).join(', ')) || w.tba;
    return e.format === 'hybrid' ? w.alsoOnline.replace('{place}', place) : place;
  }

  function price(e, w, lang) {
    var p = e.price || {};
    if (p.type === 'free') return w.free;
    if (p.type === 'paid') {
      return p.amount === null || p.amount === undefined
        ? w.paid
        : new Intl.NumberFormat(lang, { style: 'currency', currency: p.currency, currencyDisplay: 'code' }).format(p.amount);
    }
    return w.unknown;
  }

  class TechEvents extends HTMLElement {
    static get observedAttributes() { return PARAMS.concat(['hl']); }
    constructor() {
      super();
      this.root = this.attachShadow({ mode: 'open' });
      if (sheet) this.root.adoptedStyleSheets = [sheet];
      this.asked = 0;
    }
    connectedCallback() { this.load(); }
    attributeChangedCallback() { if (this.isConnected) this.load(); }
    query() {
      var search = new URLSearchParams();
      for (var i = 0; i < PARAMS.length; i++) {
        var value = this.getAttribute(PARAMS[i]);
        if (value !== null && value !== '') search.set(PARAMS[i], value);
      }
      if (!search.has('limit')) search.set('limit', '10');
      return search;
    }
    // The list's language: hl, else the host page's, else the one language lang filters events by, else English.
    // lang is the grammar's event-language filter here as on the pages, not the list's language.
    lang() {
      var named = [this.getAttribute('hl'), document.documentElement.lang];
      for (var i = 0; i < named.length; i++) {
        var lang = (named[i] || '').slice(0, 2).toLowerCase();
        if (WORDS[lang]) return lang;
      }
      var heldIn = (this.getAttribute('lang') || '').trim().toLowerCase();
      return WORDS[heldIn] ? heldIn : 'en';
    }
    load() {
      var self = this;
      var ask = ++this.asked;
      var search = this.query();
      var lang = this.lang();
      fetch(BASE + '/api/events?' + search, { headers: { accept: 'application/json' } })
        .then(function (res) { return res.ok ? res.json() : Promise.reject(res.status); })
        .then(function (body) { if (ask === self.asked) self.draw(body.events || [], search, lang); })
        .catch(function () { if (ask === self.asked) self.draw(null, search, lang); });
    }
    draw(events, search, lang) {
      var w = WORDS[lang];
      var root = this.root;
      while (root.firstChild) root.removeChild(root.firstChild);
      var wrap = el('div');
      wrap.lang = lang;
      if (events === null) {
        wrap.appendChild(el('p', 'm', w.failed));
      } else if (events.length === 0) {
        wrap.appendChild(el('p', 'none', w.none));
      } else {
        var list = el('ol');
        for (var i = 0; i < events.length; i++) {
          var e = events[i];
          var item = el('li');
          item.appendChild(el('div', 'm', when(e, lang)));
          var title = el('a', 't', e.title);
          title.href = e.url + '?hl=' + lang;
          item.appendChild(title);
          item.appendChild(el('div', 'm', where(e, w) + ' · ' + price(e, w, lang)));
          list.appendChild(item);
        }
        wrap.appendChild(list);
      }
      var page = new URLSearchParams(search);
      page.delete('limit');
      page.set('hl', lang);
      var more = el('a', 'more', w.more);
      more.href = BASE + '/?' + page;
      var p = el('p');
      p.appendChild(more);
      wrap.appendChild(p);
      root.appendChild(wrap);
    }
  }
  customElements.define('tech-events', TechEvents);
})();
`;

/** The script served at /embed.js by the service at `baseUrl` (BASE_URL), which it then asks. */
export function embedScript(baseUrl: string): string {
  // Replaced by functions: a `$` in a value is not a replacement pattern.
  return SOURCE.replace('__BASE__', () => JSON.stringify(baseUrl))
    .replace('__WORDS__', () => JSON.stringify(words()))
    .replace('__PARAMS__', () => JSON.stringify(PAGE_PARAMETERS));
}
