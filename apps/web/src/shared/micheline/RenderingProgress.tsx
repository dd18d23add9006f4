import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { renderingPercent } from './michelson-mode';

/**
 * "Rendering: N%" while a long script is drawn chunk by chunk (light view and editor alike); nothing once done.
 * It lies over the top of the code's box (its parent is positioned), taking no room: its coming and going moves
 * nothing below it (a layout shift of the page when the code is done, on a slow phone).
 */
export function RenderingProgress({ done, total }: { done: number; total: number }) {
  if (total <= 1 || done >= total) return null;
  const percent = renderingPercent(done, total);
  return (
    <Box
      role="status"
      sx={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        zIndex: 1,
        px: 1,
        pt: 0.5,
        bgcolor: 'background.paper',
        boxShadow: 1,
      }}
    >
      <Typography variant="body2">Rendering: {percent}%</Typography>
      <LinearProgress variant="determinate" value={percent} aria-label="Rendering code" />
    </Box>
  );
}
