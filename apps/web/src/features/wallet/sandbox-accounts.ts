/**
 * The five standard octez sandbox bootstrap accounts: public test keys, known to every Tezos sandbox and
 * used only on the local "sandboxnet" chain. A test checks they equal the sandbox's own list.
 */
export interface SandboxAccount {
  name: string;
  pkh: string;
  sk: string;
}

export const SANDBOX_NETWORK = 'sandboxnet';

export const SANDBOX_ACCOUNTS: readonly SandboxAccount[] = [
  {
    name: 'bootstrap1',
    pkh: 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx',
    sk: 'edsk3gUfUPyBSfrS9CCgmCiQsTCHGkviBDusMxDJstFtojtc1zcpsh',
  },
  {
    name: 'bootstrap2',
    pkh: 'tz1gjaF81ZRRvdzjobyfVNsAeSC6PScjfQwN',
    sk: 'edsk39qAm1fiMjgmPkw1EgQYkMzkJezLNewd7PLNHTkr6w9XA2zdfo',
  },
  {
    name: 'bootstrap3',
    pkh: 'tz1faswCTDciRzE4oJ9jn2Vm2dvjeyA9fUzU',
    sk: 'edsk4ArLQgBTLWG5FJmnGnT689VKoqhXwmDPBuGx3z4cvwU9MmrPZZ',
  },
  {
    name: 'bootstrap4',
    pkh: 'tz1b7tUupMgCNw2cCLpKTkSD1NZzB5TkP2sv',
    sk: 'edsk2uqQB9AY4FvioK2YMdfmyMrer5R8mGFyuaLLFfSRo8EoyNdht3',
  },
  {
    name: 'bootstrap5',
    pkh: 'tz1ddb9NMYHZi5UzPdzTZMYQQZoMub195zgv',
    sk: 'edsk4QLrcijEffxV31gGdN2HU7UpyJjA8drFoNcmnB28n89YjPNRFm',
  },
];
