// The target form, made from GET /v1/capabilities (media types and target options) and
// GET /v1/presets: nothing about the API's parameters is written here.

/** Creates an element with attributes and children. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** Every target media type some chain writes, from the catalogue's conversions, sorted. */
export function targetMediaTypes(catalogue) {
  const targets = new Set();
  for (const source of catalogue.conversions || []) {
    for (const target of source.targets) targets.add(target);
  }
  return [...targets].sort();
}

/**
 * The target options a request for {@code mediaType} can use: those consumed by an operation of a
 * conversion writing it, and, going back along the chains, of a conversion writing what those read
 * (a PDF page's `page` and `dpi` for an image). So `text/plain` takes no `width`.
 */
export function optionsFor(catalogue, mediaType) {
  const wanted = new Set([mediaType]);
  const names = new Set();
  let grew = true;
  while (grew) {
    grew = false;
    for (const capability of catalogue.capabilities || []) {
      const consumes = new Map((capability.operations || []).map((o) => [o.name, o.consumes || []]));
      for (const conversion of capability.conversions || []) {
        if (!wanted.has(conversion.target)) continue;
        for (const operation of conversion.operations || []) {
          for (const name of consumes.get(operation) || []) names.add(name);
        }
        for (const source of conversion.sources || []) {
          if (!wanted.has(source)) {
            wanted.add(source);
            grew = true;
          }
        }
      }
    }
  }
  return names;
}

/** One input for a target option (a ParameterDescriptor of GET /v1/capabilities). */
function optionField(option) {
  const id = `option-${option.name}`;
  const hintId = `${id}-hint`;
  let input;
  if (option.type === 'integer') {
    input = el('input', {
      id, name: option.name, type: 'number', inputmode: 'numeric', step: 1,
      min: option.minimum, max: option.maximum, placeholder: option.defaultValue ?? '',
      'aria-describedby': hintId,
    });
  } else if (option.type === 'boolean' || (option.allowedValues && option.allowedValues.length)) {
    const values = option.type === 'boolean' ? ['true', 'false'] : option.allowedValues;
    input = el('select', { id, name: option.name, 'aria-describedby': hintId },
      el('option', { value: '', text: option.defaultValue === undefined ? '(not given)' : `(default: ${option.defaultValue})` }),
      values.map((v) => el('option', { value: v, text: v })));
  } else {
    input = el('input', {
      id, name: option.name, type: 'text', pattern: option.pattern, placeholder: option.defaultValue ?? '',
      'aria-describedby': hintId,
    });
  }
  input.dataset.type = option.type;
  const range = option.type === 'integer' && option.minimum !== undefined ? ` (${option.minimum}–${option.maximum})` : '';
  return el('div', { class: 'option' },
    el('label', { for: id, text: option.name }),
    input,
    el('p', { id: hintId, class: 'hint', text: (option.description || '') + range }));
}

/**
 * Fills the form's media type and option fields from the catalogue and its preset list from the
 * presets; the default target is a 256 px JPEG thumbnail.
 */
export function buildTargetForm(form, catalogue, presets) {
  const mediaType = form.querySelector('#mediaType');
  mediaType.replaceChildren(...targetMediaTypes(catalogue).map((t) => el('option', { value: t, text: t })));
  mediaType.value = 'image/jpeg';
  const options = form.querySelector('#target-options');
  options.replaceChildren(...(catalogue.targetOptions || []).map(optionField));
  for (const [name, value] of [['width', 256], ['height', 256]]) {
    const input = options.querySelector(`[name="${name}"]`);
    if (input) input.value = value;
  }
  const showOptions = () => {
    const taken = optionsFor(catalogue, mediaType.value);
    for (const field of options.querySelectorAll('.option')) {
      field.hidden = !taken.has(field.querySelector('[name]').name);
    }
  };
  mediaType.addEventListener('change', showOptions);
  showOptions();
  const preset = form.querySelector('#preset');
  const list = presets.presets || [];
  preset.replaceChildren(...list.map((p) => el('option', { value: p.name, text: p.name })));
  const describe = () => {
    const chosen = list.find((p) => p.name === preset.value);
    form.querySelector('#preset-description').textContent = chosen
      ? `${chosen.description || ''} = ${JSON.stringify(chosen.target || chosen.steps)}`
      : '';
  };
  preset.addEventListener('change', describe);
  describe();
  const showMode = () => {
    const mode = form.querySelector('[name="mode"]:checked').value;
    form.querySelector('#preset-fields').hidden = mode !== 'preset';
    form.querySelector('#target-fields').hidden = mode !== 'target';
  };
  form.querySelectorAll('[name="mode"]').forEach((radio) => radio.addEventListener('change', showMode));
  if (!list.length) {
    form.querySelector('[value="target"]').checked = true;
  }
  showMode();
}

/** The request's {preset} or {target} member, as the form says it; blank options are left out. */
export function readTarget(form) {
  const mode = form.querySelector('[name="mode"]:checked').value;
  if (mode === 'preset') return { preset: form.querySelector('#preset').value };
  const target = { mediaType: form.querySelector('#mediaType').value };
  for (const input of form.querySelectorAll('#target-options [name]')) {
    if (input.closest('.option').hidden) continue; // an option the media type does not take
    const raw = input.value.trim();
    if (raw === '') continue;
    if (input.dataset.type === 'integer') target[input.name] = Number(raw);
    else if (input.dataset.type === 'boolean') target[input.name] = raw === 'true';
    else target[input.name] = raw;
  }
  return { target };
}
