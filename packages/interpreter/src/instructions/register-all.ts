/**
 * Loads every instruction table (each module registers its handlers with the interpreter) and the block
 * compiler of the fast path (compile.ts installs itself).
 */
import './arith';
import './collections';
import './control';
import './crypto';
import './domain';
import './tickets';
import './views';
import '../compile';
