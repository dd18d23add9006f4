/**
 * A CodeMirror 6 stream mode for Michelson (no maintained one exists on npm). Token classes follow the
 * reference viewer (bcd-frontend.md §3.1): sections are atoms, data constructors and instructions keywords,
 * context instructions atoms, composite types tags (typeName), scalar types variables (variableName),
 * macros special strings, literals strings/numbers, annotations and comments comments.
 */
import type { StreamParser, StringStream } from '@codemirror/language';

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

const SECTIONS = words('parameter storage code view');
const CONSTRUCTORS = words('Unit True False Pair Left Right Some None Elt Lambda_rec Ticket');
const INSTRUCTIONS = words(`
  ABS ADD AND APPLY BLAKE2B CAR CDR CAST CHECK_SIGNATURE COMPARE CONCAT CONS CONTRACT CREATE_ACCOUNT
  CREATE_CONTRACT DIG DIP DROP DUG DUP EDIV EMIT EMPTY_BIG_MAP EMPTY_MAP EMPTY_SET EQ EXEC FAILWITH GE GET
  GET_AND_UPDATE GT HASH_KEY IF IF_CONS IF_LEFT IF_NONE IMPLICIT_ACCOUNT INT ISNAT ITER JOIN_TICKETS KECCAK
  LAMBDA LAMBDA_REC LE LEFT LOOP LOOP_LEFT LSL LSR LT MAP MEM MUL NEG NEQ NEVER NIL NONE NOT NOW OR PACK PAIR
  PAIRING_CHECK PUSH READ_TICKET RENAME RIGHT SEND SET_DELEGATE SHA256 SHA3 SHA512 SIZE SLICE SOME SOURCE
  SPLIT_TICKET STEPS_TO_QUOTA SUB SUB_MUTEZ SWAP TRANSFER_TOKENS UNIT UNPACK UNPAIR UPDATE VIEW XOR OPEN_CHEST
  BYTES NAT MIN_BLOCK_TIME ADDRESS CONSTANT`);
const CONTEXT = words(`
  AMOUNT BALANCE CHAIN_ID LEVEL SELF SELF_ADDRESS SENDER TICKET TICKET_DEPRECATED TOTAL_VOTING_POWER
  VOTING_POWER SAPLING_EMPTY_STATE SAPLING_VERIFY_UPDATE`);
const COMPOSITE_TYPES = words(
  'option list set contract pair or lambda map big_map ticket sapling_state sapling_transaction sapling_transaction_deprecated',
);
const SCALAR_TYPES = words(`
  unit never bool int nat string chain_id bytes mutez key_hash key signature timestamp address operation
  bls12_381_g1 bls12_381_g2 bls12_381_fr chest chest_key tx_rollup_l2_address`);
const MACRO =
  /^(IF_SOME|IF_RIGHT|FAIL|ASSERT(_[A-Z]+)?|CMP(EQ|NEQ|LT|GT|LE|GE)|IF(EQ|NEQ|LT|GT|LE|GE)|IFCMP(EQ|NEQ|LT|GT|LE|GE)|D[I]+P|DUU+P|C[AD]{2,}R|SET_C[AD]+R|MAP_C[AD]+R|[PAI]{3,}R|UN[PAI]{3,}R)$/;

/** The highlighting class of a bare word (exported for tests). */
export function wordClass(word: string): string | null {
  if (SECTIONS.has(word)) return 'atom';
  if (CONSTRUCTORS.has(word) || INSTRUCTIONS.has(word)) return 'keyword';
  if (CONTEXT.has(word)) return 'atom';
  if (COMPOSITE_TYPES.has(word)) return 'typeName';
  if (SCALAR_TYPES.has(word)) return 'variableName';
  if (MACRO.test(word)) return 'macroName';
  return null;
}

export interface State {
  inComment: boolean;
  inString: boolean;
}

function readString(stream: StringStream, state: State): string {
  let escaped = false;
  while (!stream.eol()) {
    const ch = stream.next();
    if (ch === '"' && !escaped) {
      state.inString = false;
      return 'string';
    }
    escaped = !escaped && ch === '\\';
  }
  state.inString = true;
  return 'string';
}

export const michelsonMode: StreamParser<State> = {
  name: 'michelson',
  startState: () => ({ inComment: false, inString: false }),
  token(stream, state) {
    if (!state.inComment && stream.match('/*')) state.inComment = true;
    if (state.inComment) {
      if (stream.skipTo('*/')) {
        stream.pos += 2;
        state.inComment = false;
      } else stream.skipToEnd();
      return 'comment';
    }
    if (state.inString) return readString(stream, state);
    if (stream.eatSpace()) return null;
    if (stream.match('#')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.eat('"')) return readString(stream, state);
    if (stream.match(/^0x[0-9a-fA-F]*/)) return 'string';
    if (stream.match(/^-?\d+/)) return 'number';
    if (stream.match(/^[%@:][A-Za-z0-9_.%@]*/)) return 'comment';
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
    if (word && typeof word !== 'boolean') return wordClass(word[0]);
    stream.next();
    return 'punctuation';
  },
  languageData: { commentTokens: { line: '#', block: { open: '/*', close: '*/' } } },
};

/** Splits code into chunks of at most `size` characters, cut at line ends when possible (35,000 by spec). */
export function codeChunks(code: string, size: number): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < code.length) {
    let end = Math.min(code.length, start + size);
    if (end < code.length) {
      const nl = code.lastIndexOf('\n', end - 1);
      if (nl >= start) end = nl + 1;
    }
    chunks.push(code.slice(start, end));
    start = end;
  }
  return chunks;
}

/** "Rendering: N%" progress after `done` of `total` chunks. */
export const renderingPercent = (done: number, total: number): number =>
  total === 0 ? 100 : Math.min(100, Math.floor((done / total) * 100));
