/**
 * The search box's text field and its list of suggestions: a native input with a listbox popup after the
 * WAI-ARIA combobox pattern (role="combobox", aria-expanded, aria-controls, aria-activedescendant; the
 * input keeps the focus while the arrows move the active option). It looks like the MUI outlined field and
 * Autocomplete list it replaces, at a fraction of their code (they brought Popper, Chip, Select and
 * InputBase to every page with a header search box).
 *
 * Keys: ArrowDown / ArrowUp open the list and move the active option (going round), PageDown / PageUp by
 * five, Enter opens the active option or else submits the text, Escape closes the list.
 * Mouse: a press in the field opens the list (or closes it while the text is empty), pointing at an option
 * makes it active, a click opens it. The clear button (×) shows while there is text.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Theme } from '@mui/material/styles';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import { moveActive, moveOfKey } from './combobox-keys';

export interface SearchComboboxProps<O extends { key: string }> {
  /** The accessible name of the text field. */
  name: string;
  /** A label on the field's outline (the home box); none in the header. */
  label?: string | undefined;
  placeholder: string;
  size: 'small' | 'medium';
  /** The longest text the field accepts (it cuts pasted text). */
  maxLength: number;
  text: string;
  onTextChange: (text: string) => void;
  options: readonly O[];
  /** The accessible name of the list (what it lists). */
  listName: string;
  /** Suggestions are on their way: "Loading…" shows while there is none to list. */
  loading: boolean;
  renderOption: (option: O) => ReactNode;
  /** An option was chosen (click, or Enter on the active one). */
  onPick: (option: O) => void;
  /** Enter with no active option. */
  onSubmitText: (text: string) => void;
}

interface Active {
  index: number;
  /** Keyboard and pointer show the active option with different shades (as MUI lists do). */
  by: 'keyboard' | 'mouse';
}

const NONE: Active = { index: -1, by: 'keyboard' };

/** The outlined field (MUI's OutlinedInput look: outline, notched label, adornment, clear button). */
const fieldStyle = (theme: Theme, small: boolean, clearable: boolean) => {
  const outline = theme.palette.mode === 'light' ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)';
  return {
    typography: 'body1',
    lineHeight: '1.4375em',
    color: theme.palette.text.primary,
    boxSizing: 'border-box',
    position: 'relative',
    cursor: 'text',
    display: 'flex',
    alignItems: 'center',
    width: '100%',
    borderRadius: `${theme.shape.borderRadius}px`,
    // strings: sx reads bare numbers as spacing units
    padding: small ? '6px' : '9px',
    paddingRight: clearable ? '39px' : '9px',
    '& > fieldset': {
      textAlign: 'left',
      position: 'absolute',
      inset: '-5px 0 0 0',
      margin: 0,
      padding: '0 8px',
      pointerEvents: 'none',
      borderRadius: 'inherit',
      borderStyle: 'solid',
      borderWidth: '1px',
      borderColor: outline,
      overflow: 'hidden',
      minWidth: '0%',
    },
    '& > fieldset > legend': {
      float: 'unset',
      width: 'auto',
      overflow: 'hidden',
      display: 'block',
      padding: 0,
      height: '11px',
      lineHeight: '11px',
      fontSize: '0.75em',
      visibility: 'hidden',
      maxWidth: '100%',
      whiteSpace: 'nowrap',
      '& > span': {
        paddingLeft: '5px',
        paddingRight: '5px',
        display: 'inline-block',
        opacity: 0,
        visibility: 'visible',
      },
    },
    '&:hover > fieldset': { borderColor: theme.palette.text.primary },
    '@media (hover: none)': { '&:hover > fieldset': { borderColor: outline } },
    '&:focus-within > fieldset': { borderColor: theme.palette.primary.main, borderWidth: '2px' },
    '& > label': {
      typography: 'body1',
      lineHeight: '1.4375em',
      color: theme.palette.text.secondary,
      position: 'absolute',
      left: '0',
      top: '0',
      padding: '0',
      zIndex: 1,
      display: 'block',
      transformOrigin: 'top left',
      transform: 'translate(14px, -9px) scale(0.75)',
      maxWidth: 'calc(133% - 32px)',
      whiteSpace: 'nowrap',
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      userSelect: 'none',
      cursor: 'default',
    },
    '&:focus-within > label': { color: theme.palette.primary.main },
    '& > .ms-search-icon': {
      display: 'flex',
      alignItems: 'center',
      maxHeight: '2em',
      whiteSpace: 'nowrap',
      marginRight: '8px',
      color: theme.palette.action.active,
    },
    '& > input': {
      font: 'inherit',
      letterSpacing: 'inherit',
      color: 'currentColor',
      border: '0',
      boxSizing: 'content-box',
      background: 'none',
      height: '1.4375em',
      margin: 0,
      display: 'block',
      flexGrow: 1,
      width: 0,
      minWidth: '30px',
      textOverflow: 'ellipsis',
      padding: small ? '2.5px 4px 2.5px 8px' : '7.5px 4px 7.5px 5px',
      WebkitTapHighlightColor: 'transparent',
      '&::placeholder': { color: 'currentColor', opacity: theme.palette.mode === 'light' ? 0.42 : 0.5 },
      '&:focus': { outline: 0 },
    },
    '& > .ms-search-clear': {
      position: 'absolute',
      right: '9px',
      top: '50%',
      transform: 'translate(0, -50%)',
      visibility: 'hidden',
    },
    '&:focus-within > .ms-search-clear': { visibility: 'visible' },
    '@media (pointer: fine)': { '&:hover > .ms-search-clear': { visibility: 'visible' } },
  };
};

/** The list (MUI's Autocomplete listbox look). */
const listStyle = (theme: Theme) => ({
  listStyle: 'none',
  margin: 0,
  padding: '8px 0',
  maxHeight: '40vh',
  overflow: 'auto',
  position: 'relative',
  '& > li': {
    minHeight: '48px',
    display: 'flex',
    flexWrap: 'wrap',
    gap: theme.spacing(0.5, 1.5),
    overflow: 'hidden',
    justifyContent: 'flex-start',
    alignItems: 'center',
    cursor: 'pointer',
    padding: '6px 16px',
    boxSizing: 'border-box',
    outline: 0,
    WebkitTapHighlightColor: 'transparent',
    [theme.breakpoints.up('sm')]: { minHeight: 'auto', flexWrap: 'nowrap' },
  },
  '& > li[data-active="mouse"]': {
    backgroundColor: theme.palette.action.hover,
    '@media (hover: none)': { backgroundColor: 'transparent' },
  },
  '& > li[data-active="keyboard"]': { backgroundColor: theme.palette.action.focus },
});

export function SearchCombobox<O extends { key: string }>(props: SearchComboboxProps<O>) {
  const { text, options, loading, onTextChange } = props;
  const id = useId();
  const listId = `${id}-listbox`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState<Active>(NONE);

  // A new list of options starts with none active.
  const keys = options.map((o) => o.key).join('\n');
  const [listed, setListed] = useState(keys);
  if (listed !== keys) {
    setListed(keys);
    setActive(NONE);
  }

  const shown = open && (options.length > 0 || loading);
  const activeIndex = shown && active.index < options.length ? active.index : -1;

  // Keep the option moved to by the keyboard in view (scrolling the list only, not the page).
  useEffect(() => {
    if (active.by !== 'keyboard' || activeIndex < 0 || !list.current) return;
    const box = list.current;
    const item = box.children[activeIndex] as HTMLElement | undefined;
    if (!item) return;
    if (item.offsetTop < box.scrollTop) box.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = item.offsetTop + item.offsetHeight - box.clientHeight;
    }
  }, [active, activeIndex]);

  const close = () => {
    setOpen(false);
    setActive(NONE);
  };

  const pick = (option: O) => {
    close();
    props.onPick(option);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    const move = moveOfKey(event.key);
    if (move) {
      const arrow = move === 'next' || move === 'previous';
      if (!open) {
        if (arrow) {
          event.preventDefault();
          setOpen(true);
        }
        return;
      }
      event.preventDefault();
      setActive({ index: moveActive(activeIndex, options.length, move), by: 'keyboard' });
      return;
    }
    if (event.key === 'Escape') {
      if (open) {
        event.preventDefault();
        event.stopPropagation();
        close();
      }
      return;
    }
    if (event.key === 'Enter') {
      const option = activeIndex >= 0 ? options[activeIndex] : undefined;
      if (option) {
        event.preventDefault();
        pick(option);
      } else if (text !== '') {
        close();
        props.onSubmitText(text);
      }
    }
  };

  return (
    <div style={{ position: 'relative', width: '100%' }}>
      <Box
        sx={(theme) => fieldStyle(theme, props.size === 'small', text !== '')}
        // A press anywhere in the field (icon, padding) focuses the input without taking the focus away.
        onMouseDown={(event) => {
          if (event.target !== input.current) event.preventDefault();
        }}
        onClick={() => input.current?.focus()}
      >
        {props.label ? <label htmlFor={id}>{props.label}</label> : null}
        <span className="ms-search-icon" aria-hidden>
          <SearchIcon />
        </span>
        <input
          ref={input}
          id={id}
          type="text"
          role="combobox"
          aria-label={props.name}
          aria-autocomplete="list"
          aria-expanded={shown}
          aria-controls={shown ? listId : undefined}
          aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={props.maxLength}
          placeholder={props.placeholder}
          value={text}
          onChange={(event) => {
            const next = event.target.value;
            onTextChange(next);
            if (next !== '') setOpen(true);
          }}
          onMouseDown={() => {
            if (!open) setOpen(true);
            else if (text === '') close();
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
        />
        {text !== '' ? (
          <IconButton
            className="ms-search-clear"
            aria-label="Clear"
            title="Clear"
            tabIndex={-1}
            sx={{ p: '4px', mr: '-2px' }}
            onClick={() => {
              onTextChange('');
              input.current?.focus();
            }}
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        ) : null}
        <fieldset aria-hidden>
          <legend>{props.label ? <span>{props.label}</span> : null}</legend>
        </fieldset>
      </Box>
      {shown ? (
        <Paper
          role="presentation"
          sx={(theme) => ({
            typography: 'body1',
            position: 'absolute',
            top: '100%',
            left: 0,
            width: '100%',
            zIndex: theme.zIndex.modal,
            overflow: 'auto',
          })}
        >
          {loading && options.length === 0 ? (
            <Box sx={{ color: 'text.secondary', p: '14px 16px' }}>Loading…</Box>
          ) : null}
          {options.length > 0 ? (
            <Box
              component="ul"
              sx={listStyle}
              ref={list}
              id={listId}
              role="listbox"
              aria-label={props.listName}
              // The input keeps the focus while the pointer is in the list.
              onMouseDown={(event) => event.preventDefault()}
            >
              {options.map((option, index) => (
                <li
                  key={option.key}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === activeIndex}
                  data-active={index === activeIndex ? active.by : undefined}
                  onMouseMove={() => {
                    if (active.index !== index || active.by !== 'mouse') setActive({ index, by: 'mouse' });
                  }}
                  onClick={() => pick(option)}
                >
                  {props.renderOption(option)}
                </li>
              ))}
            </Box>
          ) : null}
        </Paper>
      ) : null}
    </div>
  );
}
