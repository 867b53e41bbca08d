// A warm sharp for the bench's *_vs_sharp rows: loads sharp once, then for each line
// "<mode>\t<input>\t<output>" on stdin makes the derivative and answers "ok" (or "error <message>").
// Modes are what a sharp user writes for Derive's rows: a 256 px JPEG q85 thumbnail, upright, and
// its smart crop (libvips attention). The operation cache is off, as in Derive (vips_cache_set_max 0).
const sharp = require(require.resolve('sharp', { paths: [process.argv[2]] }));
sharp.cache(false);
const readline = require('node:readline');

function pipeline(mode, input) {
  const image = sharp(input).rotate();
  switch (mode) {
    case 'thumbnail':
      return image.resize(256, 256, { fit: 'inside' });
    case 'smartcrop':
      return image.resize(256, 256, { fit: 'cover', position: sharp.strategy.attention });
    default:
      throw new Error('unknown mode ' + mode);
  }
}

console.log(JSON.stringify({
  sharp: sharp.versions.sharp, libvips: sharp.versions.vips, concurrency: sharp.concurrency(),
}));
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  const [mode, input, output] = line.split('\t');
  try {
    await pipeline(mode, input).jpeg({ quality: 85 }).toFile(output);
    console.log('ok');
  } catch (e) {
    console.log('error ' + String(e.message).replace(/\n/g, ' '));
  }
});
