import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Typedef } from '../../api/contract-types';

/** Type docs (bcd-frontend.md §3.1): `name type` lines with indented `key value` arguments; `$name` references accented. */
function TypeText({ text }: { text: string }) {
  const parts = text.split(/(\$[A-Za-z0-9_@%.:-]+)/);
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

export function TypedefPanel({ typedef, title }: { typedef: readonly Typedef[]; title: string }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="overline" component="h2">
        {title}
      </Typography>
      {typedef.length === 0 ? (
        <Typography color="text.secondary" variant="body2">
          —
        </Typography>
      ) : (
        typedef.map((t, i) => (
          <Box
            key={`${t.name}-${i}`}
            sx={{ fontFamily: 'monospace', fontSize: 13, mb: 1, overflowX: 'auto' }}
          >
            <div>
              <Box component="span" sx={{ color: 'primary.main' }}>
                {t.name}
              </Box>{' '}
              <TypeText text={t.type ?? ''} />
            </div>
            {(t.args ?? []).map((a, j) => (
              <Box key={j} sx={{ pl: 2, whiteSpace: 'pre' }}>
                {a.key ? `${a.key} ` : ''}
                <TypeText text={a.value} />
              </Box>
            ))}
          </Box>
        ))
      )}
    </Box>
  );
}
