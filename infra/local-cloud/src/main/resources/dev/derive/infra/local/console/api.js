// The Derive API as the console uses it: JSON requests to this origin, problem+json errors,
// the presigned upload with progress and the presigned download as a Blob.

/** An answer that was not 2xx: the problem+json the API sent, or one made from the status. */
export class Problem extends Error {
  constructor(status, body) {
    const problem = body && typeof body === 'object' ? body : {};
    super(problem.detail || problem.title || problem.message || `HTTP ${status}`);
    this.status = status;
    this.problem = {
      type: problem.type || 'about:blank',
      title: problem.title || problem.message || `HTTP ${status}`,
      status: problem.status || status,
      detail: problem.detail || '',
      errors: Array.isArray(problem.errors) ? problem.errors : [],
      reachable: problem.reachable,
      id: problem.id, // a job's problem: the job's id
    };
  }
}

/** The body of a response as JSON, or null when it is none. */
async function json(response) {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text.slice(0, 500) };
  }
}

/** A JSON request to the API; resolves to {status, headers, body}, rejects with a Problem. */
export async function request(method, path, body) {
  const init = { method, headers: { accept: 'application/json, application/problem+json' } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new Problem(0, { title: 'The API did not answer', detail: `${method} ${path}: ${e.message}` });
  }
  const answer = await json(response);
  if (!response.ok) throw new Problem(response.status, answer);
  return { status: response.status, headers: response.headers, body: answer };
}

/**
 * PUTs file to a presigned upload ({method, url, headers}), calling progress(sentBytes, total).
 * XMLHttpRequest, since fetch() reports no upload progress.
 */
export function putPresigned(upload, file, progress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(upload.method || 'PUT', upload.url);
    for (const [name, value] of Object.entries(upload.headers || {})) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (e) => progress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        progress(file.size, file.size);
        resolve();
      } else {
        reject(new Problem(xhr.status, { title: 'The upload was refused', detail: s3Message(xhr.responseText) }));
      }
    };
    xhr.onerror = () => reject(new Problem(0, {
      title: 'The upload did not reach the bucket',
      detail: `PUT to ${new URL(upload.url).origin} failed (network or CORS)`,
    }));
    xhr.send(file);
  });
}

/** S3's XML error as one line: "Code: Message". */
function s3Message(xml) {
  const code = /<Code>([^<]*)<\/Code>/.exec(xml || '');
  const message = /<Message>([^<]*)<\/Message>/.exec(xml || '');
  return [code && code[1], message && message[1]].filter(Boolean).join(': ') || (xml || '').slice(0, 200);
}

/** The base64 SHA-256 of a File's bytes (crypto.subtle: the console's loopback origin is secure). */
export async function sha256Base64(file) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await file.arrayBuffer()));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The presigned download as a Blob (its size and type, and an object URL to show it). */
export async function download(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Problem(0, { title: 'The download failed', detail: `${new URL(url).origin}: ${e.message}` });
  }
  if (!response.ok) {
    throw new Problem(response.status, { title: 'The download was refused', detail: s3Message(await response.text()) });
  }
  return response.blob();
}

/** Single-quotes text for a POSIX shell. */
export function shellQuote(text) {
  return `'${String(text).replaceAll("'", `'\\''`)}'`;
}

/** The request as a curl command line a shell can repeat. */
export function curl(method, url, body) {
  const parts = ['curl -s -i', '-X', method, shellQuote(url)];
  if (body !== undefined) {
    parts.push('-H', shellQuote('content-type: application/json'), '-d', shellQuote(JSON.stringify(body)));
  }
  return parts.join(' ');
}
