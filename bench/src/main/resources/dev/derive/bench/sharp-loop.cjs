// A warm sharp for the bench's *_vs_sharp rows: loads sharp once, then for each line
// "<mode>\t<input>\t<output>" on stdin makes the derivative and answers "ok" (or "error <message>").
// Modes are what a sharp user writes for Derive's rows: a 256 px JPEG q85 thumbnail, upright, and
// its smart crop (libvips attention), and for the info row the reference ThumbHash encoder (npm
// thumbhash, from the folder in argv[3]) on sharp's 100 px RGBA decode, as its README makes one.
// The operation cache is off, as in Derive (vips_cache_set_max 0).
const sharp = require(require.resolve('sharp', { paths: [process.argv[2]] }));
const fs = require('node:fs');
let thumbhash;
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
    if (mode === 'thumbhash') {
      thumbhash ??= require(require.resolve('thumbhash', { paths: [process.argv[3]] }));
      const { data, info } = await sharp(input).rotate()
        .resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const hash = thumbhash.rgbaToThumbHash(info.width, info.height, data);
      fs.writeFileSync(output, Buffer.from(hash).toString('base64'));
      console.log('ok');
      return;
    }
    await pipeline(mode, input).jpeg({ quality: 85 }).toFile(output);
    console.log('ok');
  } catch (e) {
    console.log('error ' + String(e.message).replace(/\n/g, ' '));
  }
});
