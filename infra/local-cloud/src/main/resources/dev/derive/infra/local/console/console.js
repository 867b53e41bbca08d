// The Derive console: upload files, ask for a derivative of each, follow each job's steps and
// show its result. Plain ES modules; everything it fetches comes from the API's origin or the
// presigned bucket URLs the API hands out.
import { Problem, request, putPresigned, download, curl, sha256Base64 } from './api.js';
import { el, buildTargetForm, readTarget } from './target-form.js';

/** How often a running job is read again, in milliseconds. */
const POLL_MILLIS = 400;
/** How long a job is followed before the console stops reading it, in milliseconds. */
const FOLLOW_MILLIS = 5 * 60 * 1000;

const uploads = []; // {file, key, ready: Promise, objectUrl}
let jobCount = 0;

const $ = (selector) => document.querySelector(selector);

/** "12.3 kB" for a byte count. */
export function bytes(n) {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB'];
  let value = n;
  let unit = -1;
  do {
    value /= 1000;
    unit += 1;
  } while (value >= 1000 && unit < units.length - 1);
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

/** The problem as the API said it: title and status, detail, each violation, the type's URI. */
function problemView(error) {
  const problem = error instanceof Problem ? error.problem : { title: 'Error', detail: String(error), errors: [] };
  return el('div', { class: 'problem', role: 'alert' },
    el('p', { class: 'problem-title' },
      el('strong', { text: problem.title }), problem.status ? ` (${problem.status})` : ''),
    problem.detail ? el('p', { class: 'problem-detail', text: problem.detail }) : null,
    problem.errors.length
      ? el('ul', {}, problem.errors.map((v) => el('li', {}, el('code', { text: v.pointer || '' }), ` ${v.detail || v.message || ''}`)))
      : null,
    problem.reachable ? el('p', { text: `Reachable from this source: ${problem.reachable.join(', ')}` }) : null,
    problem.type && problem.type !== 'about:blank' ? el('p', { class: 'hint' }, el('code', { text: problem.type })) : null);
}

// ---------------------------------------------------------------- uploads

function addFiles(files) {
  for (const file of files) uploads.push(upload(file));
  $('#make').disabled = uploads.length === 0;
}

/** Asks for a presigned PUT, sends the file with a progress bar; the entry's ready settles with it. */
function upload(file) {
  const progress = el('progress', { max: file.size || 1, value: 0, 'aria-label': `Upload of ${file.name}` });
  const status = el('span', { class: 'upload-status', text: 'asking for an upload URL…' });
  const item = el('li', { class: 'upload' },
    el('span', { class: 'upload-name', text: file.name }),
    el('span', { class: 'hint', text: ` ${file.type || 'unknown type'}, ${bytes(file.size)}` }),
    progress, status);
  $('#uploads').append(item);
  const entry = { file, key: null, objectUrl: file.type.startsWith('image/') ? URL.createObjectURL(file) : null };
  entry.ready = (async () => {
    const contentType = file.type || 'application/octet-stream';
    // The upload URL signs the bytes' SHA-256, which S3 keeps: the same bytes uploaded again are
    // known as the same source, and their derivatives are not made again.
    const sha256 = await sha256Base64(file);
    const answer = await request('POST', '/v1/uploads', { fileName: file.name, contentType, size: file.size, sha256 });
    status.textContent = 'uploading…';
    await putPresigned(answer.body.upload, file, (sent, total) => {
      progress.max = total || 1;
      progress.value = sent;
    });
    entry.key = answer.body.key;
    status.textContent = 'uploaded as ';
    status.append(el('code', { text: entry.key }));
    item.classList.add('done');
    item.dataset.state = 'uploaded';
    return entry;
  })().catch((error) => {
    status.textContent = 'upload failed';
    item.classList.add('failed');
    item.dataset.state = 'failed';
    item.append(problemView(error));
    throw error;
  });
  entry.ready.catch(() => {}); // shown on the item; the job for it is then not asked for
  return entry;
}

// ---------------------------------------------------------------- jobs

async function makeAll(event) {
  event.preventDefault();
  const asked = readTarget($('#target'));
  $('#form-status').textContent = `Asked for ${describe(asked)} of ${uploads.length} file(s).`;
  for (const entry of uploads) {
    entry.ready.then(() => follow(entry, asked), () => {});
  }
}

/** Follows one file's job; anything unexpected ends on its card as an error, not in the console log. */
async function follow(entry, asked) {
  const card = jobCard(entry, asked);
  try {
    await card.run();
  } catch (error) {
    card.fail(error);
  }
}

function describe(asked) {
  if (asked.preset) return `preset ${asked.preset}`;
  const t = asked.target;
  const size = t.width || t.height ? ` ${t.width || '?'}×${t.height || '?'}` : '';
  return `${t.mediaType}${size}${t.fit ? ` ${t.fit}` : ''}${t.page ? ` page ${t.page}` : ''}`;
}

/** One job card: POST, then GET until the job ends, then the result. */
function jobCard(entry, asked) {
  jobCount += 1;
  const body = { source: { key: entry.key }, ...asked };
  const card = el('article', { class: 'job', id: `job-${jobCount}`, tabindex: '-1', 'data-state': 'requesting' });
  const status = el('span', { class: 'badge', text: 'requesting' });
  const happened = el('div', { class: 'happened' });
  const steps = el('div', { class: 'steps' });
  const result = el('div', { class: 'result' });
  const original = el('figure', { class: 'original' },
    entry.objectUrl ? el('img', { src: entry.objectUrl, alt: `Original: ${entry.file.name}` }) : null,
    el('figcaption', { text: `Original: ${entry.file.name}, ${bytes(entry.file.size)}` }));
  const api = location.origin;
  card.append(
    el('h3', {}, `${entry.file.name} → ${describe(asked)} `, status),
    el('div', { class: 'side-by-side' }, original, result),
    el('details', { class: 'what', open: true }, el('summary', { text: 'What happened' }), happened),
    steps,
    el('details', { class: 'curl' }, el('summary', { text: 'The same requests with curl' }),
      el('pre', {}, el('code', {
        class: 'curl-post',
        text: `${curl('POST', `${api}/v1/derivatives`, body)}\n# then, with the id it answers:\n`
          + `curl -s ${api}/v1/derivatives/<id>\ncurl -s -L -o result ${api}/v1/derivatives/<id>/content`,
      }))));
  $('#jobs').prepend(card);
  const setState = (state) => {
    card.dataset.state = state;
    status.textContent = state.toLowerCase();
    status.className = `badge ${state.toLowerCase()}`;
  };

  const fail = (error) => {
    setState('FAILED');
    result.append(problemView(error));
  };
  let outcome; // how the POST was answered: cached, joined or started
  return { run, fail };

  async function run() {
    let answer;
    try {
      answer = await request('POST', '/v1/derivatives', body);
    } catch (error) {
      happened.replaceChildren(el('p', { class: 'outcome', 'data-outcome': 'refused', text: refusal(error) }));
      fail(error);
      return;
    }
    const { id } = answer.body;
    outcome = answer.body.outcome;
    card.dataset.jobId = id;
    card.querySelector('.curl-post').textContent =
      `${curl('POST', `${api}/v1/derivatives`, body)}\ncurl -s ${api}/v1/derivatives/${id}\n`
      + `curl -s -L -o result ${api}/v1/derivatives/${id}/content`;
    let job = answer.body;
    if (outcome === 'cached') {
      // the answer has no steps: the job record (if it is still kept) says how it was made earlier
      job = { ...(await request('GET', `/v1/derivatives/${id}`)).body, download: job.download };
    }
    setState(job.status);
    const started = Date.now();
    while (job.status !== 'SUCCEEDED' && job.status !== 'FAILED') {
      render(job);
      if (Date.now() - started > FOLLOW_MILLIS) {
        result.append(el('p', { role: 'alert', text: `Still ${job.status} after ${FOLLOW_MILLIS / 1000} s; no longer followed here.` }));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MILLIS));
      try {
        job = (await request('GET', `/v1/derivatives/${id}`)).body;
      } catch (error) {
        fail(error);
        return;
      }
    }
    render(job);
    if (job.status === 'FAILED') {
      result.append(problemView(new Problem(0, {
        type: job.error.type,
        title: `Step ${job.error.step} failed${job.error.retryable ? ' (retryable: asking again may succeed)' : ''}`,
        detail: job.error.detail,
      })));
      return;
    }
    await showResult(job, entry, asked, card, result);
  }

  function render(view) {
    setState(view.status);
    happened.replaceChildren(...whatHappened(view, outcome));
    steps.replaceChildren(stepsTable(view));
  }
}

/**
 * What a problem answer to the POST means: a request refused before anything ran, or the failure
 * of the derivative's job (it carries the job's `id`), which ran, now or earlier.
 */
function refusal(error) {
  const problem = error instanceof Problem ? error.problem : {};
  if (problem.id) {
    return `The job for this derivative ran and failed (job id ${problem.id}); asking again answers `
      + 'the same failure while it is kept, unless it is retryable.';
  }
  return 'The request was refused; nothing ran.';
}

/** The plan as it ran: how the request was answered, then each step as ran or reused. */
function whatHappened(job, outcome) {
  const lines = [];
  const answered = {
    cached: 'Answered from the cache: this derivative was made before, so nothing ran for this request.',
    joined: 'Joined a running job: an identical request had already started it, so this one shares its execution and nothing new was queued.',
    started: 'Started a new job for this request.',
  }[outcome] || `Answered ${outcome || 'without saying how'}.`;
  lines.push(el('p', { class: 'outcome', 'data-outcome': outcome || '', text: answered }));
  lines.push(el('p', { class: 'hint' }, 'Job id ', el('code', { text: job.id })));
  const list = job.steps || [];
  if (list.length && outcome === 'cached') {
    lines.push(el('p', { text: 'How it was made earlier, by the job this answer comes from:' }));
  }
  if (list.length) {
    lines.push(el('ol', { class: 'plan' }, list.map((step) => el('li', {
      'data-reused': String(Boolean(step.reused)),
      text: `${step.capability} (${(step.operations || []).join(', ')}) ${step.inputMediaType || ''} → ${step.outputMediaType || ''}: `
        + (step.reused ? 'reused from the cache, its output was already made'
          : step.status === 'SUCCEEDED' ? `ran${step.durationMillis !== undefined ? ` in ${step.durationMillis} ms` : ''}${step.attempts > 1 ? ` on attempt ${step.attempts}` : ''}`
            : step.status.toLowerCase()),
    }))));
  } else if (job.status === 'SUCCEEDED') {
    lines.push(el('p', { text: 'No job record: the derivative was served straight from the bucket.' }));
  }
  return lines;
}

/** Each step with its capability, operations, status, timing and attempts. */
function stepsTable(job) {
  const list = job.steps || [];
  if (!list.length) return el('p', { class: 'hint', text: 'No steps to show.' });
  const header = ['#', 'capability', 'operations', 'reads → writes', 'status', 'time', 'attempts']
    .map((h) => el('th', { scope: 'col', text: h }));
  const rows = list.map((step, i) => el('tr', { class: 'step', 'data-status': step.status },
    el('td', { text: String(i + 1) }),
    el('td', { text: step.capability }),
    el('td', { text: (step.operations || []).join(', ') }),
    el('td', { text: `${step.inputMediaType || '?'} → ${step.outputMediaType || '?'}` }),
    el('td', { text: step.reused ? `${step.status} (reused)` : step.status + (step.overdue ? ' (overdue)' : '') }),
    el('td', { text: step.durationMillis !== undefined ? `${step.durationMillis} ms` : step.startedAt ? 'running' : '' }),
    el('td', { text: String(step.attempts ?? 0) })));
  return el('div', { class: 'table-scroll' },
    el('table', {}, el('caption', { text: 'Steps' }), el('thead', {}, el('tr', {}, header)), el('tbody', {}, rows)));
}

/** Fetches the derivative and shows it by its media type, with its size, dimensions and link. */
async function showResult(job, entry, asked, card, result) {
  const url = job.download.url;
  let blob;
  try {
    blob = await download(url);
  } catch (error) {
    result.append(problemView(error));
    return;
  }
  const list = job.steps || [];
  const last = list[list.length - 1];
  const type = (last && last.outputMediaType) || blob.type || 'application/octet-stream';
  const objectUrl = URL.createObjectURL(blob);
  const caption = el('figcaption', { class: 'result-caption', text: `Result: ${type}, ${bytes(blob.size)}` });
  const figure = el('figure', { class: 'derivative', 'data-type': type, 'data-bytes': String(blob.size) });
  if (type.startsWith('image/')) {
    const img = el('img', { class: 'result-image', src: objectUrl, alt: `${describe(asked)} of ${entry.file.name}` });
    img.addEventListener('load', () => {
      caption.textContent += `, ${img.naturalWidth}×${img.naturalHeight} px`;
      img.dataset.width = String(img.naturalWidth);
      img.dataset.height = String(img.naturalHeight);
      card.dataset.state = 'SHOWN';
    });
    figure.append(img);
  } else if (type.startsWith('text/') || type === 'application/json') {
    const text = await blob.text();
    figure.append(el('pre', { class: 'result-text', tabindex: '0', text: text.length > 20000 ? `${text.slice(0, 20000)}\n…` : text }));
    card.dataset.state = 'SHOWN';
  } else if (type === 'application/pdf') {
    figure.append(el('iframe', { class: 'result-pdf', src: objectUrl, title: `PDF made from ${entry.file.name}` }));
    card.dataset.state = 'SHOWN';
  } else {
    card.dataset.state = 'SHOWN';
  }
  figure.append(caption, el('p', {},
    el('a', { href: objectUrl, class: 'download', download: derivedName(entry.file.name, type), text: 'Download' }),
    ' ', el('a', { href: url, class: 'presigned', text: 'presigned URL' }),
    el('span', { class: 'hint', text: ` (until ${job.download.expiresAt})` })));
  result.append(figure);
  addToGallery(card, type, objectUrl, `${entry.file.name} → ${describe(asked)}`);
}

/**
 * The name a derivative downloads under: `<source name>.derived.<extension>`, as `./derive derive`
 * names it; the extension is the media type's subtype, in its usual spelling (jpeg → jpg,
 * plain → txt) and without a vendor prefix or structured suffix.
 */
export function derivedName(sourceName, mediaType) {
  const dot = sourceName.lastIndexOf('.');
  const base = dot > 0 ? sourceName.slice(0, dot) : sourceName;
  let subtype = (mediaType.split(';')[0].split('/')[1] || 'bin').trim().toLowerCase();
  subtype = subtype.replace(/^(x-|vnd\.)/, '').replace(/\+.*$/, '');
  const usual = { jpeg: 'jpg', plain: 'txt', markdown: 'md', 'octet-stream': 'bin' }[subtype];
  return `${base}.derived.${usual || subtype}`;
}

function addToGallery(card, type, objectUrl, label) {
  const button = el('button', { type: 'button', class: 'gallery-item' },
    type.startsWith('image/') ? el('img', { src: objectUrl, alt: '' }) : el('span', { class: 'gallery-type', text: type }),
    el('span', { text: label }));
  button.addEventListener('click', () => {
    card.scrollIntoView({ block: 'start' });
    card.focus();
  });
  $('#gallery').append(el('li', {}, button));
}

// ---------------------------------------------------------------- start

async function start() {
  $('#api-origin').textContent = location.origin;
  const input = $('#file-input');
  input.addEventListener('change', () => {
    addFiles([...input.files]);
    input.value = '';
  });
  const zone = $('#drop-zone');
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    addFiles([...e.dataTransfer.files]);
  });
  const form = $('#target');
  form.addEventListener('submit', makeAll);
  try {
    const [catalogue, presets] = await Promise.all([
      request('GET', '/v1/capabilities'),
      request('GET', '/v1/presets'),
    ]);
    buildTargetForm(form, catalogue.body, presets.body);
    form.dataset.ready = 'true';
  } catch (error) {
    form.prepend(problemView(error));
  }
}

start();
