import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { renderingPercent } from './michelson-mode';

/** "Rendering: N%" while a long script is drawn chunk by chunk (light view and editor alike); nothing once done. */
export function RenderingProgress({ done, total }: { done: number; total: number }) {
  if (total <= 1 || done >= total) return null;
  const percent = renderingPercent(done, total);
  return (
    <Box role="status" sx={{ mb: 1 }}>
      <Typography variant="body2">Rendering: {percent}%</Typography>
      <LinearProgress variant="determinate" value={percent} aria-label="Rendering code" />
    </Box>
  );
}
