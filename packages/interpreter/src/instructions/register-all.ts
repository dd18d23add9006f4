/** Loads every instruction table (each module registers its handlers with the interpreter). */
import './arith';
import './collections';
import './control';
import './crypto';
import './domain';
import './tickets';
import './views';
