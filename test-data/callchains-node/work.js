// Interpreted JS (--jitless: V8's bytecode handlers, native code in node) and OpenSSL's SHA-256.
let s = 0;
for (let i = 0; i < 2e7; i++) s += i % 7;
const h = require('crypto').createHash('sha256');
const b = Buffer.alloc(1 << 20, 97);
for (let i = 0; i < 200; i++) h.update(b);
console.log(s, h.digest('hex').slice(0, 16));
