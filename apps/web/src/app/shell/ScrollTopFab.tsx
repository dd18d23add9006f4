import Fab from '@mui/material/Fab';
import Zoom from '@mui/material/Zoom';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';

/** The "Scroll to top" button itself (its own chunk, see ScrollTopButton). */
export default function ScrollTopFab({ visible }: { visible: boolean }) {
  return (
    <Zoom in={visible}>
      <Fab
        size="small"
        color="primary"
        aria-label="Scroll to top"
        onClick={() => window.scrollTo({ top: 0, left: 0, behavior: 'smooth' })}
        sx={{ position: 'fixed', right: 16, bottom: 16, zIndex: 1100 }}
      >
        <KeyboardArrowUpIcon />
      </Fab>
    </Zoom>
  );
}
