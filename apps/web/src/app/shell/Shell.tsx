import { lazy, Suspense } from 'react';
import { Outlet, useNavigation } from 'react-router';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import { Header } from './Header';
import { ScrollTopButton } from './ScrollTopButton';
import { useNavigationEffects } from './useNavigationEffects';
import { useDropSsrMarkup } from '../ssr-markup';

const MAIN_ID = 'main-content';

/** The route-loading bar shows only while a navigation loads a screen: MUI's LinearProgress loads then. */
const LinearProgress = lazy(() => import('@mui/material/LinearProgress'));

/** The layout around every screen: skip link, header, route-loading bar and the screen itself. */
export function Shell() {
  useNavigationEffects();
  useDropSsrMarkup();
  const navigation = useNavigation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <Link
        href={`#${MAIN_ID}`}
        sx={{
          position: 'absolute',
          left: -9999,
          '&:focus': { left: 8, top: 8, zIndex: 2000, p: 1, bgcolor: 'background.paper' },
        }}
      >
        Skip to content
      </Link>
      <Header />
      <Box sx={{ height: 4 }}>
        {navigation.state === 'loading' ? (
          <Suspense fallback={null}>
            <LinearProgress aria-label="Loading page" />
          </Suspense>
        ) : null}
      </Box>
      <Container
        component="main"
        id={MAIN_ID}
        tabIndex={-1}
        maxWidth="xl"
        sx={{ flexGrow: 1, pb: 6, outline: 'none' }}
      >
        <Outlet />
      </Container>
      <ScrollTopButton />
    </Box>
  );
}
