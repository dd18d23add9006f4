-- Key states are per contract as well as pointer and key: before Babylon every contract's single big map has
-- pointer -1 (big_map_diffs.ptr = -1), so two contracts holding the same key shared one state row, and the
-- Babylon migration, which moves each contract's rows to its real pointer, could not give each its own.
-- For real pointers (each owned by one contract) nothing changes.
ALTER TABLE big_map_states DROP CONSTRAINT big_map_states_network_ptr_key_hash_key;
ALTER TABLE big_map_states ADD CONSTRAINT big_map_states_network_ptr_key_hash_contract_key
  UNIQUE (network, ptr, key_hash, contract);
