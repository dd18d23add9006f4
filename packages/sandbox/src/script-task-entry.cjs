// Entry of the script workers for piscina, in CommonJS. Piscina first require()s its filename, and on Node 20
// a require() of the ESM boot (top-level await, tsx's hooks) can abort the whole process on a native check
// ("v8::Module::IsGraphAsync must be used on an instantiated module": CI lost test files to it). Required as
// CommonJS, this entry loads the ESM boot through import(), the asynchronous path, once per worker.
'use strict';

let boot;
module.exports = function runScriptTask(...args) {
  boot ??= import('./script-task-boot.mjs');
  return boot.then((m) => m.default(...args));
};
