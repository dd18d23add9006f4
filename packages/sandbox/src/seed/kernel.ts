// The demo smart rollup's kernel: the smallest WebAssembly module a wasm_2_0_0 rollup can boot,
// written for this project. Its text form:
//   (module (func (export "kernel_run")))
// (header 00 61 73 6d 01 00 00 00; type section: one `func [] -> []`; function section: one
// function of that type; export section: "kernel_run"; code section: an empty body).
export const DEMO_KERNEL =
  '0061736d01000000' + '010401600000' + '03020100' + '070e010a6b65726e656c5f72756e0000' + '0a040102000b';
