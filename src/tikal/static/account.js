// The account page: sign in or up (optional: guests play by invite link as ever), and,
// signed in, the account's seats, password, sign-out and deletion (docs/web.md, Accounts).
"use strict";

(function () {
  const h = TK.h;
  const el = (id) => document.getElementById(id);
  let me = { signed_in: false };

  // The seats this browser holds as a guest (game id, invite token): bound at sign-in.
  function heldSeats() {
    return Object.entries(TK.myGames()).filter(([, g]) => g.token)
      .slice(0, 64).map(([game, g]) => ({ game, token: g.token }));
  }

  function send(path, body) {
    const headers = { "Content-Type": "application/json" };
    if (me.csrf) headers["X-CSRF-Token"] = me.csrf;
    return TK.api(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  }

  function clearErrors(form) {
    for (const input of form.querySelectorAll("input")) input.removeAttribute("aria-invalid");
    const box = form.querySelector(".form-error");
    if (box) box.textContent = "";
  }

  // A refusal shown in its form, the field at fault marked and focused.
  function showError(form, err) {
    const data = err.data || {};
    form.querySelector(".form-error").textContent = data.message || err.message;
    const fields = { name: "name", password: "password", current_password: "current_password", new_password: "new_password" };
    const input = data.field && form.querySelector(`input[name="${fields[data.field] || ""}"]`);
    if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
  }

  function handle(form, run) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors(form);
      el("account-status").textContent = "";
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try { await run(new FormData(form)); } catch (err) { showError(form, err); } finally { button.disabled = false; }
    });
  }

  async function seatsList() {
    const box = el("account-seats");
    box.replaceChildren();
    let seats = [];
    try { seats = (await TK.api("/api/account/seats")).seats; } catch (e) { seats = []; }
    if (!seats.length) { box.append(h("li", { class: "hint-text" }, TK.t("account.no_seats"))); return; }
    const local = TK.myGames();
    for (const s of seats) {
      const token = local[s.game] && local[s.game].token;
      box.append(h("li", {}, h("a", { href: `/play/${s.game}${token ? "#t=" + token : ""}` },
        TK.t("account.seat_in", { game: s.game, seat: s.seat + 1 }))));
    }
  }

  // Passkeys: the browser's own JSON forms of the WebAuthn options and answers.
  const passkeysWork = () => window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON;

  async function passkeyList() {
    const box = el("passkey-list");
    box.replaceChildren();
    let keys = [];
    try { keys = (await TK.api("/api/account/passkeys")).passkeys; } catch (e) { keys = []; }
    if (!keys.length) { box.append(h("li", { class: "hint-text" }, TK.t("account.no_passkeys"))); return; }
    for (const key of keys) {
      const remove = h("button", { class: "btn small", type: "button" }, TK.t("account.remove_passkey", { name: key.name }));
      remove.addEventListener("click", async () => {
        try { await send(`/api/account/passkeys/${encodeURIComponent(key.id)}/delete`); } catch (err) { TK.toast(err.message, "error"); return; }
        await passkeyList(); said("account.passkey_removed");
      });
      const added = new Date(key.created * 1000).toLocaleDateString(TK.lang);
      box.append(h("li", { "data-passkey": key.id }, h("span", {}, key.name), h("span", { class: "meta" }, TK.t("account.passkey_added_on", { date: added })), remove));
    }
  }

  async function addPasskey(data) {
    if (!passkeysWork()) throw new Error(TK.t("account.passkey_unsupported"));
    const ceremony = await send("/api/account/passkeys/options");
    let credential;
    try {
      credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(ceremony.options) });
    } catch (e) { throw new Error(TK.t("account.passkey_cancelled")); }
    await send("/api/account/passkeys", { challenge_id: ceremony.challenge_id, credential: credential.toJSON(), name: data.get("name") || "" });
    el("passkey-form").reset();
    await passkeyList(); said("account.passkey_added");
  }

  async function passkeySignIn() {
    const box = el("passkey-signin-error");
    box.textContent = "";
    try {
      if (!passkeysWork()) throw new Error(TK.t("account.passkey_unsupported"));
      const ceremony = await send("/api/account/passkey-signin/options");
      let credential;
      try {
        credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(ceremony.options) });
      } catch (e) { throw new Error(TK.t("account.passkey_cancelled")); }
      await send("/api/account/passkey-signin", { challenge_id: ceremony.challenge_id, credential: credential.toJSON() });
      await show(); said("account.done_signed_in");
    } catch (err) { box.textContent = (err.data && err.data.message) || err.message; }
  }

  async function show() {
    try { me = await TK.api("/api/account"); } catch (e) { me = { signed_in: false }; }
    el("signed-out").hidden = me.signed_in;
    el("signed-in").hidden = !me.signed_in;
    el("account-link").textContent = me.signed_in ? me.name : TK.t("nav.account");
    if (me.signed_in) {
      el("signed-in-as").replaceChildren(...TK.tn("account.signed_in_as", { name: h("strong", {}, me.name) }));
      el("my-profile").href = "/players/" + encodeURIComponent(me.name);
      await Promise.all([seatsList(), passkeyList()]);
    }
  }

  function said(key) { el("account-status").textContent = TK.t(key); }

  handle(el("signin-form"), async (data) => {
    await send("/api/account/signin", { name: data.get("name"), password: data.get("password"), seats: heldSeats() });
    el("signin-form").reset();
    await show(); said("account.done_signed_in");
  });
  handle(el("signup-form"), async (data) => {
    await send("/api/account/signup", { name: data.get("name"), password: data.get("password"), seats: heldSeats() });
    el("signup-form").reset();
    await show(); said("account.done_signed_up");
  });
  handle(el("password-form"), async (data) => {
    await send("/api/account/password", { current_password: data.get("current_password"), new_password: data.get("new_password") });
    el("password-form").reset();
    await show(); said("account.done_password");
  });
  handle(el("passkey-form"), addPasskey);
  el("passkey-signin").addEventListener("click", passkeySignIn);
  handle(el("delete-form"), async (data) => {
    if (!window.confirm(TK.t("account.delete_confirm"))) return;
    await send("/api/account/delete", { password: data.get("password") });
    me = { signed_in: false };
    await show(); said("account.done_deleted");
  });
  for (const [id, path, key] of [["signout", "/api/account/signout", "account.done_signed_out"],
    ["signout-everywhere", "/api/account/signout-everywhere", "account.done_signed_out_everywhere"]]) {
    el(id).addEventListener("click", async () => {
      try { await send(path); } catch (err) { TK.toast(err.message, "error"); return; }
      me = { signed_in: false };
      await show(); said(key);
    });
  }

  show();
})();
