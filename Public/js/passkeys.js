// Passkeys on "your progress": "Keep my progress on all my devices" registers one for this player, "I've played
// before" signs this device in with one. The server makes the challenges and checks every answer; this script only
// carries them between it and the browser's authenticator, as base64url form fields.
(function () {
  "use strict";
  // A transfer code's QR code opens /progress#transfer=CODE (after `#`, so no server sees it): the field is filled.
  var typed = document.querySelector("[data-transfer-typed]");
  var match = /^#transfer=([0-9A-Za-z]{8})$/.exec(window.location.hash);
  if (typed && match) {
    typed.value = match[1].slice(0, 4) + "-" + match[1].slice(4);
    typed.focus();
    history.replaceState(null, "", window.location.pathname + "#transfer");
  }
  var section = document.querySelector("[data-passkeys]");
  var actions = section && section.querySelector("[data-passkey-actions]");
  if (!actions || !window.PublicKeyCredential || !navigator.credentials) return;
  var message = section.querySelector("[data-passkey-message]");
  // Where this section's passkeys go: a player's (the defaults) or an admin's; admins' must verify the person.
  var urls = {
    options: section.getAttribute("data-options") || "/progress/passkeys/options",
    create: section.getAttribute("data-create") || "/progress/passkeys",
    signin: section.getAttribute("data-signin") || "/progress/passkeys/signin"
  };
  var verification = section.getAttribute("data-uv") || "preferred";
  actions.hidden = false;

  function toBytes(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    var binary = atob(base64 + "===".slice((base64.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }
  function toText(buffer) {
    var bytes = new Uint8Array(buffer), binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  // Said where the button was pressed, and brought into view (on a phone it fell below the screen's edge).
  function say(text) {
    message.textContent = text;
    message.hidden = !text;
    if (text && message.scrollIntoView) message.scrollIntoView({ block: "center" });
  }
  function busy(on) {
    actions.querySelectorAll("button").forEach(function (button) { button.disabled = on; });
  }
  // The server's answer: JSON with `next` (where to go) or `error` (in the player's words).
  // An answer that is no JSON (a proxy's error page, a 503 while the database is away) says "try again".
  function json(response) {
    return response.json().catch(function () { return { error: section.getAttribute("data-failed") }; });
  }
  function answer(response) {
    return json(response).then(function (body) {
      if (body.next) { window.location.assign(body.next); return; }
      throw new Error(body.error || String(response.status));
    });
  }
  function options(kind) {
    return Arcade.get(urls.options + "?for=" + kind).then(function (response) {
      return json(response).then(function (body) {
        if (!response.ok) throw new Error(body.error || String(response.status));
        return body;
      });
    });
  }
  function post(url, fields) {
    var body = Object.keys(fields).map(function (name) {
      return encodeURIComponent(name) + "=" + encodeURIComponent(fields[name]);
    }).join("&");
    return Arcade.post(url, body).then(answer);
  }
  // A cancelled or timed-out prompt is the player's choice: nothing to report. Anything else says what went wrong.
  function failed(error) {
    busy(false);
    if (error && (error.name === "NotAllowedError" || error.name === "AbortError")) { say(""); return; }
    say(error && error.name === "InvalidStateError" ? section.getAttribute("data-already") || error.message
      : error && error.message ? error.message : String(error));
  }

  var create = section.querySelector("[data-passkey-create]");
  var signin = section.querySelector("[data-passkey-signin]");
  if (create) create.addEventListener("click", function () {
    say("");
    busy(true);
    var challenge;
    options("create").then(function (o) {
      challenge = o.challenge;
      return navigator.credentials.create({ publicKey: {
        challenge: toBytes(o.challenge),
        rp: { id: o.rpId, name: o.rpName },
        user: { id: toBytes(o.userId), name: o.userName, displayName: o.userDisplayName },
        pubKeyCredParams: [{ type: "public-key", alg: -7 }, { type: "public-key", alg: -257 }],
        authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: verification },
        excludeCredentials: o.exclude.map(function (id) { return { type: "public-key", id: toBytes(id) }; }),
        attestation: "none",
        timeout: 240000
      } });
    }).then(function (credential) {
      return post(urls.create, {
        challenge: challenge, id: toText(credential.rawId),
        clientData: toText(credential.response.clientDataJSON),
        attestation: toText(credential.response.attestationObject)
      });
    }).catch(failed);
  });

  if (signin) signin.addEventListener("click", function () {
    say("");
    busy(true);
    var challenge;
    options("get").then(function (o) {
      challenge = o.challenge;
      return navigator.credentials.get({ publicKey: {
        challenge: toBytes(o.challenge), rpId: o.rpId, userVerification: verification, timeout: 240000
      } });
    }).then(function (credential) {
      var response = credential.response;
      return post(urls.signin, {
        challenge: challenge, id: toText(credential.rawId), clientData: toText(response.clientDataJSON),
        authData: toText(response.authenticatorData), signature: toText(response.signature),
        userHandle: response.userHandle ? toText(response.userHandle) : ""
      });
    }).catch(failed);
  });
})();
