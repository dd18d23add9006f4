import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import HistoryIcon from '@mui/icons-material/History';
import SearchIcon from '@mui/icons-material/Search';
import { suggestItems, suggestQuery } from '../../api/services';
import { itemAddress, itemFragment, itemKind, itemName, type SearchItem } from '../../api/search-items';
import { addToHistory, readHistory, type HistoryItem } from '../../features/history/search-history';
import { isContractAddress, isOperationHash } from '../../shared/chain/patterns';
import { useAppConfig } from '../../shared/config/useAppConfig';
import { shorten } from '../../shared/format/format';
import { Highlighted } from '../../shared/highlight/Highlighted';
import { useDebouncedValue } from '../../shared/hooks/useDebouncedValue';
import { browserStorage } from '../../shared/storage/local-storage';
import {
  MAX_QUERY_LENGTH,
  SUGGEST_DEBOUNCE_MS,
  historyPath,
  normalizeQuery,
  resolveEnterPath,
  searchPagePath,
  suggestionPath,
} from './search-box-logic';
import { SearchCombobox } from './SearchCombobox';

interface Option {
  key: string;
  primary: string;
  secondary: string;
  highlight: string | null;
  path: string;
  history: HistoryItem;
  recent: boolean;
}

function fromSuggestion(item: SearchItem, index: number): Option | null {
  const path = suggestionPath(item);
  if (path === null) return null;
  const network = item.body.Network;
  const value = (item.type === 'operation' ? item.body.Hash : itemAddress(item)) || item.value;
  const name = itemName(item) || (item.type === 'token' ? `Token ${item.body.TokenID}` : '');
  const fragment = item.found_by ? itemFragment(item) : null;
  return {
    key: `s${index}`,
    primary: name || shorten(value, 12, 8),
    secondary: [
      network,
      item.type === 'bigmapkey' ? `big map ${item.body.BigMapID}` : itemKind(item).toLowerCase(),
      item.found_by && `found by ${item.found_by}`,
    ]
      .filter(Boolean)
      .join(' · '),
    highlight: fragment,
    path,
    history: { value, type: item.type, ...(name ? { alias: name } : {}), shortcut: path, second: network },
    recent: false,
  };
}

function fromHistory(item: HistoryItem, index: number): Option {
  return {
    key: `h${index}`,
    primary: item.alias || shorten(item.value, 12, 8),
    secondary: ['recent', item.second].filter(Boolean).join(' · '),
    highlight: null,
    path: historyPath(item.shortcut, item.value),
    history: item,
    recent: true,
  };
}

interface SearchBoxProps {
  /** `header`: the small box of the page header (no floating label, cleared after it navigates). */
  variant?: 'home' | 'header';
}

/** The home search box: suggestions (debounced 200 ms) or, while empty, the 10 most recent searches. */
export function SearchBox({ variant = 'home' }: SearchBoxProps) {
  const inHeader = variant === 'header';
  const config = useAppConfig();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [history, setHistory] = useState(() => readHistory(browserStorage()));
  const query = normalizeQuery(input);
  const debounced = useDebouncedValue(query, SUGGEST_DEBOUNCE_MS);
  const suggestions = useQuery({
    ...suggestQuery(debounced),
    enabled: debounced.length > 0,
    staleTime: 30_000,
    retry: false,
  });
  const items = debounced === query && query.length > 0 ? (suggestions.data ?? []) : [];
  const options: Option[] =
    query.length === 0
      ? history.map(fromHistory)
      : items.map(fromSuggestion).filter((o): o is Option => o !== null);

  // Enter on an address or an operation hash may wait for its suggestions: a later edit, pick or Enter wins
  const edits = useRef(0);
  const open = (path: string, entry: HistoryItem) => {
    edits.current += 1;
    setHistory(addToHistory(browserStorage(), entry));
    if (inHeader) setInput('');
    void navigate(path);
  };

  const queryClient = useQueryClient();
  const suggestionsOf = async (text: string) => {
    const { queryKey, queryFn } = suggestQuery(text);
    return suggestItems(await queryClient.fetchQuery({ queryKey, queryFn, staleTime: 30_000 }));
  };
  const onEnter = async (text: string) => {
    const edit = ++edits.current;
    const path = await resolveEnterPath(
      text,
      { suggestions: items, sandboxMode: config.sandbox_mode, networks: config.networks },
      suggestionsOf,
    );
    if (path === null || edit !== edits.current) return;
    const value = normalizeQuery(text);
    const type = isContractAddress(value) ? 'account' : isOperationHash(value) ? 'operation' : 'text';
    open(path, { value, type, ...(path === searchPagePath(value) ? {} : { shortcut: path }) });
  };

  return (
    <SearchCombobox
      name="Search"
      label={inHeader ? undefined : 'Search'}
      placeholder={inHeader ? 'Search…' : 'Search anything: address, entrypoint, token, operation hash…'}
      size={inHeader ? 'small' : 'medium'}
      maxLength={MAX_QUERY_LENGTH + 20}
      text={input}
      onTextChange={(value) => {
        edits.current += 1;
        setInput(value.slice(0, MAX_QUERY_LENGTH));
      }}
      options={options}
      listName={query.length === 0 ? 'Recent searches' : 'Suggestions'}
      loading={suggestions.isFetching}
      onPick={(option) => open(option.path, option.history)}
      onSubmitText={(text) => void onEnter(text)}
      renderOption={(option) => (
        <>
          {option.recent ? (
            <HistoryIcon fontSize="small" color="disabled" />
          ) : (
            <SearchIcon fontSize="small" color="disabled" />
          )}
          <Box sx={{ minWidth: 0, flex: '1 1 0' }}>
            <Typography noWrap>{option.primary}</Typography>
            <Typography variant="caption" color="text.secondary" component="div" noWrap>
              {option.secondary}
            </Typography>
          </Box>
          {option.highlight ? (
            // Beside the name from 600 px; on a phone on a line of its own under it (side by side, both were cut).
            <Typography
              variant="body2"
              color="text.secondary"
              noWrap
              sx={{
                maxWidth: { xs: '100%', sm: '40%' },
                flexBasis: { xs: '100%', sm: 'auto' },
                pl: { xs: '32px', sm: 0 },
              }}
            >
              <Highlighted fragment={option.highlight} />
            </Typography>
          ) : null}
        </>
      )}
    />
  );
}
