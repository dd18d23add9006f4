import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Typedef } from '../../api/contract-types';
import { readableTypedef, TYPE_REFERENCE } from './generated-names';

/** Type docs (bcd-frontend.md §3.1): `name type` lines with indented `key value` arguments; `$name` references accented. */
function TypeText({ text }: { text: string }) {
  const parts = text.split(TYPE_REFERENCE);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith('$') ? (
          <Box key={i} component="span" sx={{ color: 'secondary.main' }}>
            {part}
          </Box>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** A typedef panel; names the API generated for unannotated types ('@pair_25') show as their type. */
export function TypedefPanel({ typedef, title }: { typedef: readonly Typedef[]; title: string }) {
  const rows = readableTypedef(typedef);
  return (
    <Box component="section" aria-label={title} sx={{ minWidth: 0 }}>
      <Typography variant="overline" component="h2">
        {title}
      </Typography>
      {rows.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          —
        </Typography>
      ) : (
        rows.map((t, i) => (
          <Box
            key={`${t.name ?? ''}-${i}`}
            sx={{ fontFamily: 'monospace', fontSize: 13, mb: 1, overflowWrap: 'anywhere' }}
          >
            <div>
              {t.name !== null ? (
                <>
                  <Box component="span" sx={{ color: 'primary.main' }}>
                    {t.name}
                  </Box>{' '}
                </>
              ) : null}
              <TypeText text={t.type} />
            </div>
            {t.args.map((a, j) => (
              <Box key={j} sx={{ pl: 2, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {a.key !== null ? `${a.key} ` : ''}
                <TypeText text={a.value} />
              </Box>
            ))}
          </Box>
        ))
      )}
    </Box>
  );
}
