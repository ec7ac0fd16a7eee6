// The guest comment form of the article page (/pubs/{post_id}), served as /assets/comment-form.js
// under the page's CSP (script-src 'self'; no inline script). Without this script the page reads
// fully and says that commenting needs JavaScript; with it, the form:
//   1. gets the guest session (GET /api/pubs/human-session: cookie, csrf, limits, challenge),
//   2. runs the ALTCHA widget, served by this service, when the challenge is enabled,
//   3. posts JSON with X-CSRF-Token and a fresh request_id, retrying a lost answer with the same
//      request_id (the server answers the original comment, never a duplicate),
//   4. shows each error in words, and the new comment once stored (and fetches the page again with
//      cache: 'reload', so the browser's cached copy shows it too on a reload or a later visit);
//   5. makes the Reply control of each comment answer it (parent_id), and the Report controls of the
//      article and of each comment open the report form (POST /api/pubs/reports, same guest checks).
// Every text from the server or the reader is put in the page as text (textContent), never HTML.
(() => {
  const form = document.getElementById('comment-form');
  if (!form) return;
  const postId = form.dataset.postId;
  const revisionId = form.dataset.revisionId;
  const statusBox = document.getElementById('cf-status');
  const button = form.querySelector('button[type=submit]');
  const nickname = form.elements.namedItem('nickname');
  const comment = form.elements.namedItem('comment');
  const challengeBox = document.getElementById('cf-challenge');
  const replying = document.getElementById('cf-replying');
  const replyingText = document.getElementById('cf-replying-text');
  const reportSection = document.getElementById('report');
  const reportForm = document.getElementById('report-form');
  const reportTarget = document.getElementById('rf-target');
  const reportStatus = document.getElementById('rf-status');
  const reason = reportForm?.elements.namedItem('reason');

  let session = null; // the last human-session answer
  let widget = null; // the <altcha-widget>, while the challenge is enabled
  let solved = null; // the widget's payload for the current challenge
  let pending = null; // { requestId, key }: a comment sent whose answer was not read yet
  let replyTo = null; // { id, author }: the comment the next comment answers
  let reportOf = null; // { commentId?, opener }: what the report form reports

  const showIn = (box, text, kind) => {
    box.textContent = text;
    box.className = kind === 'error' ? 'error' : kind === 'ok' ? 'notice' : '';
    box.hidden = !text;
  };
  const show = (text, kind) => showIn(statusBox, text, kind);
  // The outcome of "Post comment": shown, then focused (tabindex=-1), so a keyboard or screen
  // reader user lands on it instead of the page body, and it is read out as it takes focus.
  const result = (text, kind) => {
    show(text, kind);
    statusBox.focus();
  };
  // A refusal that names a field (too short, or a field the server refused): the message is
  // shown, the field is marked invalid and described by it, and takes focus, so the reader lands
  // where the fix goes and hears why (WCAG 3.3.1, 3.3.3). The marks go at the next try.
  const markInvalid = (field, box) => {
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', box.id);
  };
  const clearInvalid = (...fields) => {
    for (const f of fields) {
      f?.removeAttribute('aria-invalid');
      f?.removeAttribute('aria-describedby');
    }
  };
  const fieldError = (field, text) => {
    show(text, 'error');
    markInvalid(field, statusBox);
    field.focus();
  };
  const challengeState = document.getElementById('cf-challenge-state');
  // What each state of the anti-spam widget is said as, in the live region next to it.
  const STATE_TEXT = {
    verifying: 'Verifying that you are not a robot…',
    verified: 'Verified: you can post your comment.',
    error: 'The anti-spam check failed; check the box to try again.',
    expired: 'The anti-spam check expired; check the box again.',
  };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const newRequestId = () =>
    typeof crypto.randomUUID === 'function'
      ? crypto.randomUUID()
      : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.type = 'module';
      s.src = src;
      s.onload = () => resolve();
      s.onerror = () => reject(new Error(`could not load ${src}`));
      document.head.appendChild(s);
    });
  }

  function loadStyle(href) {
    if (document.querySelector(`link[rel=stylesheet][href="${CSS.escape(href)}"]`)) return;
    const l = document.createElement('link');
    l.rel = 'stylesheet';
    l.href = href;
    document.head.appendChild(l);
  }

  async function getSession() {
    const res = await fetch('/api/pubs/human-session', { credentials: 'same-origin', headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!res.ok) throw new Error(`the comment service answered ${res.status}`);
    session = await res.json();
    const l = session.limits || {};
    if (l.nickname_max) nickname.maxLength = l.nickname_max;
    if (l.comment_max) comment.maxLength = l.comment_max;
    await setUpChallenge();
  }

  let widgetLoaded = null;
  async function setUpChallenge() {
    solved = null;
    const c = session.challenge;
    if (!c?.enabled) {
      if (widget) widget.remove();
      widget = null;
      challengeBox.hidden = true;
      return;
    }
    if (!widgetLoaded) {
      loadStyle(c.widget.css);
      widgetLoaded = loadScript(c.widget.script).then(() => {
        globalThis.$altcha.algorithms.set(c.algorithm, () => new Worker(c.widget.worker, { type: 'module' }));
      });
    }
    await widgetLoaded;
    if (!widget) {
      widget = document.createElement('altcha-widget');
      widget.setAttribute('auto', 'onfocus');
      widget.setAttribute('name', 'altcha');
      widget.addEventListener('verified', (ev) => {
        solved = ev.detail?.payload;
      });
      widget.addEventListener('expired', () => {
        solved = null;
      });
      // The widget's own label changes silently: its state is said in a live region, and the box
      // is busy while it works.
      widget.addEventListener('statechange', (ev) => {
        const state = ev.detail?.state;
        challengeBox.setAttribute('aria-busy', String(state === 'verifying'));
        if (challengeState) challengeState.textContent = STATE_TEXT[state] ?? '';
      });
      // A verified box stays verified: Space or a click on it would uncheck it and drop the solved
      // challenge for nothing.
      widget.addEventListener(
        'click',
        (ev) => {
          const box = ev.composedPath().find((n) => n instanceof HTMLInputElement && n.type === 'checkbox');
          if (box && solved) {
            ev.preventDefault();
            ev.stopPropagation();
          }
        },
        true,
      );
      challengeBox.appendChild(widget);
      await customElements.whenDefined('altcha-widget');
    }
    challengeBox.hidden = false;
    widget.configure({ challenge: c.data, auto: 'onfocus', hideFooter: false });
    if (typeof widget.reset === 'function') widget.reset();
  }

  /** The payload of a solved challenge: solves it now if the reader has not yet, or waits for the solving under way. */
  function solve() {
    if (solved) return Promise.resolve(solved);
    return new Promise((resolve, reject) => {
      const off = () => widget.removeEventListener('statechange', onChange);
      // The payload comes with the state, with the verified event, or in the widget's form field.
      const payload = (ev) => ev.detail?.payload || solved || form.elements.namedItem('altcha')?.value;
      function onChange(ev) {
        const state = ev.detail?.state;
        if (state === 'verified') {
          off();
          setTimeout(() => (payload(ev) ? resolve(payload(ev)) : reject(new Error('The anti-spam check gave no answer; try again.'))), 0);
        } else if (state === 'error' || state === 'expired') {
          off();
          reject(new Error('The anti-spam check failed; try again.'));
        }
      }
      widget.addEventListener('statechange', onChange);
      if (typeof widget.getState !== 'function' || widget.getState() !== 'verifying') widget.verify();
    });
  }

  /** The Reply and Report controls of a comment (the same markup the page renders). */
  function actionsFor(id, author) {
    const p = document.createElement('p');
    p.className = 'actions';
    const make = (label, aria, data) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'link';
      b.textContent = label;
      b.setAttribute('aria-label', aria);
      for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
      return b;
    };
    p.append(make('Reply', `Reply to ${author}`, { replyTo: id, author }), make('Report', `Report the comment by ${author}`, { reportComment: id, author }));
    return p;
  }

  function setReply(target) {
    replyTo = target;
    replying.hidden = !target;
    replyingText.textContent = target ? `Replying to ${target.author}.` : '';
  }

  function renderComment(c) {
    const list = document.getElementById('comment-list');
    const empty = document.getElementById('no-comments');
    if (empty) empty.remove();
    if (document.getElementById(`c-${c.id}`)) return;
    const li = document.createElement('li');
    li.className = 'comment';
    li.id = `c-${c.id}`;
    const meta = document.createElement('p');
    meta.className = 'meta';
    const who = document.createElement('bdi'); // a nickname may be written right to left
    who.className = 'who';
    who.textContent = c.author.nickname;
    const mark = document.createElement('span');
    mark.className = 'm';
    mark.textContent = 'guest';
    const when = document.createElement('time');
    when.dateTime = c.created_at;
    when.textContent = `${c.created_at.slice(0, 16).replace('T', ' ')} UTC`;
    meta.append(who, ' ', mark, ' · ', when);
    const parentName = c.parent_id && document.getElementById(`c-${c.parent_id}`)?.querySelector('[data-reply-to]')?.dataset.author;
    if (parentName !== undefined && parentName !== null) {
      const a = document.createElement('a');
      a.href = `#c-${c.parent_id}`;
      const name = document.createElement('bdi');
      name.textContent = parentName;
      a.append(name);
      meta.append(' · in reply to ', a);
    }
    const text = document.createElement('p');
    text.className = 'text';
    text.dir = 'auto';
    text.textContent = c.text;
    li.append(meta, text, actionsFor(c.id, c.author.nickname));
    list.appendChild(li);
    li.scrollIntoView({ block: 'nearest' });
  }

  /**
   * One POST of a guest write. A comment's lost answer (network, 5xx) is retried with the same
   * request_id and body (`attempts` 4); a report has no request_id, so it is sent once.
   */
  async function send(body, path = `/api/pubs/posts/${encodeURIComponent(postId)}/human-comments`, attempts = 4) {
    let last = null;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(400 * 2 ** attempt);
      try {
        const res = await fetch(path, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': session.csrf },
          body: JSON.stringify(body),
        });
        if (res.status >= 500) {
          last = new Error(`the service answered ${res.status}`);
          continue;
        }
        const json = await res.json().catch(() => null);
        return { status: res.status, json, retryAfter: res.headers.get('retry-after') };
      } catch (e) {
        last = e;
      }
    }
    throw last;
  }

  async function lookup(requestId) {
    const res = await fetch(`/api/pubs/human-comments/lookup?request_id=${encodeURIComponent(requestId)}`, {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      cache: 'no-store',
    });
    return res.ok ? (await res.json()).comment : null;
  }

  function explain(r) {
    const e = r.json?.error || {};
    const fields = e.details && Array.isArray(e.details.fields) ? e.details.fields.map((f) => `${f.field}: ${f.message}`).join('; ') : '';
    if (r.status === 429) {
      const secs = Number(r.retryAfter);
      const wait = Number.isFinite(secs) && secs > 0 ? ` Try again in ${secs < 120 ? `${secs} seconds` : `${Math.ceil(secs / 60)} minutes`}.` : '';
      return `Too many comments for now.${wait}`;
    }
    if (fields) return `Please check the form: ${fields}`;
    return e.message || `The comment was not accepted (HTTP ${r.status}).`;
  }

  /** The fields of the form a refusal names (details.fields[].field, or details.field). */
  function refusedFields(r) {
    const d = r.json?.error?.details || {};
    const names = Array.isArray(d.fields) ? d.fields.map((f) => f?.field) : [d.field];
    const byName = { nickname, comment };
    return [
      ...new Set(
        names
          .map(
            (n) =>
              byName[
                String(n ?? '')
                  .split('.')
                  .pop()
              ],
          )
          .filter(Boolean),
      ),
    ];
  }

  async function submit(ev) {
    ev.preventDefault();
    const text = { nickname: nickname.value.trim(), comment: comment.value.trim() };
    const min = session?.limits || { nickname_min: 2, comment_min: 2 };
    clearInvalid(nickname, comment);
    if ([...text.nickname].length < (min.nickname_min || 2)) return fieldError(nickname, 'Please enter a nickname of at least 2 characters.');
    if ([...text.comment].length < (min.comment_min || 2)) return fieldError(comment, 'Please write a comment of at least 2 characters.');
    button.disabled = true;
    try {
      if (!session) await getSession();
      const parentId = replyTo ? replyTo.id : null;
      const key = JSON.stringify({ ...text, parentId });
      if (pending && pending.key !== key) {
        // An earlier comment's answer was lost and the text changed since: was it stored?
        const stored = await lookup(pending.requestId).catch(() => null);
        if (stored) renderComment(stored);
        pending = null;
      }
      if (!pending) pending = { requestId: newRequestId(), key };
      for (let round = 0; round < 2; round++) {
        const body = { ...text, request_id: pending.requestId, article_revision_id: revisionId };
        if (parentId) body.parent_id = parentId;
        if (session.challenge?.enabled) {
          show('Checking that you are not a spam robot…');
          body.challenge = await solve();
        }
        show('Sending…');
        const r = await send(body);
        if (r.status === 200 || r.status === 201) {
          pending = null;
          renderComment(r.json.comment);
          comment.value = '';
          setReply(null);
          result('Thank you: your comment is published.', 'ok');
          // The server has replaced its cached copy of this page; this replaces the browser's own
          // (it may keep the page up to its max-age), so a reload or a later visit shows the comment.
          fetch(location.pathname, { cache: 'reload', credentials: 'same-origin' }).catch(() => {});
          await getSession(); // a fresh challenge for the next comment
          return;
        }
        const code = r.json?.error?.code;
        if (code === 'GUEST_SESSION_REQUIRED' || code === 'GUEST_CSRF_INVALID' || code?.startsWith('GUEST_CHALLENGE_')) {
          // The session or its challenge went stale: a new one, then one more try.
          await getSession();
          if (round === 0) continue;
        }
        if (code === 'COMMENT_PARENT_NOT_FOUND') {
          setReply(null);
          pending = null;
          result(
            'The comment you answered is no longer shown. Your text is still here: send it as a comment of its own, or reply to another comment.',
            'error',
          );
          return;
        }
        if (code === 'GUEST_REQUEST_CONFLICT') {
          const stored = await lookup(pending.requestId).catch(() => null);
          if (stored) renderComment(stored);
          pending = null;
        } else if (r.status < 500) {
          pending = null; // refused: nothing was stored under this request_id
        }
        // A refusal does not spend the solved challenge: the reader fixes the text and sends again.
        const refused = refusedFields(r);
        if (refused.length) {
          show(explain(r), 'error');
          for (const f of refused) markInvalid(f, statusBox);
          refused[0].focus();
        } else result(explain(r), 'error');
        return;
      }
    } catch (e) {
      result(`Could not send the comment: ${e?.message ? e.message : e}. Your text is still here; try again.`, 'error');
    } finally {
      button.disabled = false;
    }
  }

  // ---- reports -----------------------------------------------------------------------------------

  function openReport(target, opener) {
    reportOf = { ...target, opener };
    reportTarget.textContent = target.commentId ? `You are reporting the comment by ${target.author}.` : 'You are reporting this article.';
    showIn(reportStatus, '');
    reportSection.hidden = false;
    reportSection.scrollIntoView({ block: 'nearest' });
    reason.focus();
  }

  function closeReport() {
    const opener = reportOf?.opener;
    reportOf = null;
    reportSection.hidden = true;
    if (opener?.isConnected) opener.focus();
  }

  async function submitReport(ev) {
    ev.preventDefault();
    if (!reportOf) return;
    const text = reason.value.trim();
    clearInvalid(reason);
    if ([...text].length < 2) {
      showIn(reportStatus, 'Please say in a few words what is wrong.', 'error');
      markInvalid(reason, reportStatus);
      return reason.focus();
    }
    const submitButton = reportForm.querySelector('button[type=submit]');
    submitButton.disabled = true;
    try {
      if (!session) await getSession();
      for (let round = 0; round < 2; round++) {
        const body = { post_id: postId, reason: text };
        if (reportOf.commentId) body.comment_id = reportOf.commentId;
        if (session.challenge?.enabled) {
          showIn(reportStatus, 'Checking that you are not a spam robot…');
          body.challenge = await solve();
        }
        showIn(reportStatus, 'Sending…');
        const r = await send(body, '/api/pubs/reports', 1);
        if (r.status === 201) {
          reason.value = '';
          showIn(reportStatus, 'Thank you: the report was sent to the operator.', 'ok');
          await getSession(); // a fresh challenge for the next comment or report
          return;
        }
        const code = r.json?.error?.code;
        if ((code === 'GUEST_SESSION_REQUIRED' || code === 'GUEST_CSRF_INVALID' || code?.startsWith('GUEST_CHALLENGE_')) && round === 0) {
          await getSession();
          continue;
        }
        if (r.status === 429) return showIn(reportStatus, explain(r).replace('Too many comments', 'Too many reports'), 'error');
        return showIn(reportStatus, explain(r), 'error');
      }
    } catch (e) {
      showIn(reportStatus, `Could not send the report: ${e?.message ? e.message : e}. Your text is still here; try again.`, 'error');
    } finally {
      submitButton.disabled = false;
    }
  }

  // One listener for the controls of every comment, those the page rendered and those added since.
  document.addEventListener('click', (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest('button') : null;
    if (!b) return;
    if (b.dataset.replyTo) {
      setReply({ id: b.dataset.replyTo, author: b.dataset.author || '' });
      comment.focus();
    } else if (b.dataset.reportComment && reportForm) {
      openReport({ commentId: b.dataset.reportComment, author: b.dataset.author || '' }, b);
    } else if (b.dataset.reportArticle && reportForm) {
      openReport({}, b);
    }
  });
  document.getElementById('cf-reply-cancel')?.addEventListener('click', () => {
    setReply(null);
    comment.focus();
  });
  if (reportForm) {
    reportForm.addEventListener('submit', submitReport);
    document.getElementById('rf-cancel').addEventListener('click', closeReport);
    reportForm.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') closeReport();
    });
  }

  form.addEventListener('submit', submit);
  const notice = document.getElementById('js-needed');
  if (notice) notice.hidden = true;
  for (const p of document.querySelectorAll('.actions')) p.hidden = false;
  form.hidden = false;
  getSession().catch((e) => show(`Commenting is unavailable right now (${e.message}).`, 'error'));
})();
