/**
 * Our part of /assets/passkey.js, after @simplewebauthn/browser's bundle (its global `SimpleWebAuthnBrowser`): wires
 * the buttons of /me to the JSON API (/api/me…). The page gives its texts and where to go next as data attributes
 * of `#passkeys`, in its language; the service's own words for a failure are shown after them.
 */
export const PASSKEY_SCRIPT_SOURCE = `
(function () {
  'use strict';
  var box = document.getElementById('passkeys');
  if (!box) return;
  var webauthn = window.SimpleWebAuthnBrowser;
  var status = document.getElementById('passkey-status');
  var say = function (text) { if (status) status.textContent = text; };

  function call(method, url, body) {
    var init = { method: method, credentials: 'same-origin', headers: { accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (res) {
      return res.text().then(function (text) {
        var data = text ? JSON.parse(text) : null;
        if (!res.ok) throw new Error((data && (data.detail || data.title)) || 'HTTP ' + res.status);
        return data;
      });
    });
  }

  function ceremony(button, run, next) {
    if (!button) return;
    button.disabled = false;
    button.addEventListener('click', function () {
      button.disabled = true;
      say(box.dataset.working);
      run().then(function () {
        location.assign(next || box.dataset.return);
      }, function (error) {
        button.disabled = false;
        say(box.dataset.failed + ' ' + (error && error.message ? error.message : String(error)));
      });
    });
  }

  ceremony(document.getElementById('create-passkey'), function () {
    return call('POST', '/api/me/passkeys/options').then(function (begun) {
      return webauthn.startRegistration({ optionsJSON: begun.options }).then(function (response) {
        return call('POST', '/api/me/passkeys', { challengeId: begun.challengeId, response: response });
      });
    });
  });
  ceremony(document.getElementById('sign-in-passkey'), function () {
    return call('POST', '/api/me/session/options').then(function (begun) {
      return webauthn.startAuthentication({ optionsJSON: begun.options }).then(function (response) {
        return call('POST', '/api/me/session', { challengeId: begun.challengeId, response: response });
      });
    });
  });
  ceremony(document.getElementById('sign-out'), function () {
    return call('DELETE', '/api/me/session');
  }, location.pathname + location.search);
  ceremony(document.getElementById('rotate-calendar'), function () {
    return call('POST', '/api/me/calendar');
  }, location.pathname + location.search);
  var remove = document.getElementById('delete-identity');
  ceremony(remove, function () {
    if (!window.confirm(box.dataset.confirm)) return Promise.reject(new Error('—'));
    return call('DELETE', '/api/me');
  }, location.pathname + location.search);
})();
`;
